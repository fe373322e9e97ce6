"""Array type names shared by the solver's modules (for type checking)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
F32 = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]
Index = npt.NDArray[np.intp]
AnyArray = npt.NDArray[Any]

"""The round of docs/judge.md's first example, as ``thirteen judge`` reads
it (``EXAMPLE_IN``) and answers it (``EXAMPLE_OUT``): for the judge's tests,
the JSON Lines loop's and the picture command's."""

EXAMPLE_IN = {
    "preset": "classic",
    "options": {"jokers": 0, "scoop_double": True},
    "players": [
        {
            "id": "A",
            "head": ["As", "Ah", "Ad"],
            "middle": ["Ks", "Kh", "Kd", "2c", "2d"],
            "tail": ["Qs", "Js", "Ts", "9s", "8s"],
        },
        {
            "id": "B",
            "cards": ["2s", "3s", "4h", "5d", "6c", "7s", "8h", "9d", "Tc", "Jd", "Qh", "Kc", "Ac"],
            "declare": True,
        },
        {
            "id": "C",
            "head": ["3h", "4c", "6d"],
            "middle": ["5s", "5h", "7d", "7c", "Jc"],
            "tail": ["2h", "7h", "9h", "Th", "Jh"],
        },
    ],
    "banker": None,
    "escaped": [],
}
EXAMPLE_OUT = {
    "ok": True,
    "players": [
        {
            "id": "A",
            "special": None,
            "lanes": [
                {"category": "three_of_a_kind", "points": 3},
                {"category": "full_house", "points": 2},
                {"category": "straight_flush", "points": 5},
            ],
            "total": -16,
        },
        {"id": "B", "special": "dragon", "lanes": None, "total": 72},
        {
            "id": "C",
            "special": None,
            "lanes": [
                {"category": "high_card", "points": 1},
                {"category": "two_pair", "points": 1},
                {"category": "flush", "points": 1},
            ],
            "total": -56,
        },
    ],
    "pairs": [
        {
            "a": "A",
            "b": "B",
            "lanes": None,
            "scoop": None,
            "score": -36,
            "parts": [{"kind": "special", "winner": "B", "special": "dragon", "points": -36}],
        },
        {
            "a": "A",
            "b": "C",
            "lanes": [1, 1, 1],
            "scoop": "A",
            "score": 20,
            "parts": [
                {
                    "kind": "lane",
                    "lane": "head",
                    "winner": "A",
                    "category": "three_of_a_kind",
                    "points": 3,
                },
                {
                    "kind": "lane",
                    "lane": "middle",
                    "winner": "A",
                    "category": "full_house",
                    "points": 2,
                },
                {
                    "kind": "lane",
                    "lane": "tail",
                    "winner": "A",
                    "category": "straight_flush",
                    "points": 5,
                },
                {"kind": "scoop", "winner": "A", "factor": 2, "points": 10},
            ],
        },
        {
            "a": "B",
            "b": "C",
            "lanes": None,
            "scoop": None,
            "score": 36,
            "parts": [{"kind": "special", "winner": "B", "special": "dragon", "points": 36}],
        },
    ],
    "home_run": None,
    "escape": [],
    "totals": {"A": -16, "B": 72, "C": -56},
}

"""Every Bot API request checked against the Bot API's own schema.

The schema is ``botapi/api.json`` beside this module (machine-readable Bot
API 10.1, MIT; tests/README.md says where it comes from and how it is kept
current). :func:`check_request` reads one request as it arrives over HTTP
(form fields, JSON-encoded where the parameter is an object, and uploaded
multipart parts) and either returns the parameters decoded by their declared
types or raises :class:`Refusal` with the status and description Telegram
answers with.

What is checked, for the method and for every object nested in it
(InputMedia, InlineKeyboardMarkup, BotCommand, ...):

- the method exists; every parameter and field is one the schema names;
- required parameters and fields are present (including "Required if
  inline_message_id is not specified");
- each value has its declared type (Integer, Float, Boolean, String,
  InputFile, an object, an array of them; unions tried in order; abstract
  types such as InputMedia resolved by their ``type``);
- ``attach://<name>`` names an uploaded part of the request, and an uploaded
  photo is an image Telegram would take;
- the documented limits ("1-4096 characters", "1-64 bytes", counted in
  UTF-16 code units and UTF-8 bytes as Telegram does);
- entities lie inside their text (UTF-16 code units), a text_mention names
  its user;
- an inline keyboard button has exactly one action, a URL button a URL
  Telegram accepts, a ``web_app`` button an HTTPS URL and a private chat.

Telegram itself ignores parameters and fields it does not know; here they
are refused, because a name the Bot API does not have is always a bug of
ours whose effect silently never happens.
"""

from __future__ import annotations

import functools
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

SCHEMA_FILE = Path(__file__).with_name("botapi") / "api.json"

# Telegram's answers for the limits it documents (observed descriptions);
# any other limit is refused with a description of the same form.
_TOO_LONG = {
    ("text", "sendMessage"): "message is too long",
    ("text", "editMessageText"): "message is too long",
    ("text", "answerCallbackQuery"): "MESSAGE_TOO_LONG",
    ("caption", ""): "message caption is too long",
    ("callback_data", ""): "BUTTON_DATA_INVALID",
}
_EMPTY = {
    ("text", "sendMessage"): "message text is empty",
    ("text", "editMessageText"): "message text is empty",
    ("callback_data", ""): "BUTTON_DATA_INVALID",
}
_LIMIT = re.compile(r"(\d+)-(\d+) (characters|bytes)")
_ONE_ACTION = re.compile(r"Exactly one of the fields other than ([\w ,]+?) must be used")
_DISCRIMINATOR = re.compile(r'(?:must be|always) [“"]?([\w_]+)[”"]?')
# A photo Telegram takes: at most 10 MB, width + height at most 10000, and a
# side ratio of at most 20 (sendPhoto's documentation).
PHOTO_MAX_BYTES = 10 * 1024 * 1024


class Refusal(Exception):
    """What Telegram answers a request it will not carry out."""

    def __init__(self, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.status = status
        self.description = description if status != 400 else f"Bad Request: {description}"


@dataclass(frozen=True)
class Request:
    """One request as it reached the server."""

    method: str
    fields: dict[str, str]
    uploads: dict[str, bytes]


@functools.cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return data


def api_version() -> str:
    return str(schema()["version"])


def check_request(request: Request) -> dict[str, Any]:
    """The request's parameters decoded by their declared types; raises
    :class:`Refusal` where Telegram would refuse it."""
    method = schema()["methods"].get(request.method)
    if method is None:
        raise Refusal("Not Found", 404)
    checker = _Checker(request)
    fields = {field["name"]: field for field in method.get("fields", [])}
    for name in request.fields:
        if name not in fields:
            raise Refusal(f"unknown parameter {name!r} of {request.method}")
    out: dict[str, Any] = {}
    for name, field in fields.items():
        if name in request.fields:
            out[name] = checker.top_level(field, request.fields[name])
        elif name in request.uploads and _accepts_upload(field["types"]):
            out[name] = checker.upload(name)
        elif _required(field, request.fields):
            raise Refusal(f"parameter {name!r} is required")
    for name in out:
        checker.limits(request.method, fields[name], out[name], "")
    checker.attachments_used()
    _entities_fit(out)
    return out


def _entities_fit(params: dict[str, Any]) -> None:
    """Entities lie inside their text, counted in UTF-16 code units, and a
    text_mention names its user (Telegram refuses anything else)."""
    for entities, text in (("entities", "text"), ("caption_entities", "caption")):
        units = len(str(params.get(text, "")).encode("utf-16-le")) // 2
        for entity in params.get(entities) or ():
            offset, length = entity.get("offset", -1), entity.get("length", 0)
            if offset < 0 or length <= 0 or offset + length > units:
                raise Refusal("can't parse entities: entity beyond the end of the text")
            if entity.get("type") == "text_mention" and "user" not in entity:
                raise Refusal("can't parse entities: text_mention without a user")


def _required(field: dict[str, Any], present: dict[str, str]) -> bool:
    if field["required"]:
        return True
    # "Required if inline_message_id is not specified."
    found = re.match(
        r"Required if (\w+) (?:and (\w+) )?(?:is|are) not specified", field["description"]
    )
    return bool(found) and not any(name and name in present for name in found.groups())


def _accepts_upload(types: list[str]) -> bool:
    return "InputFile" in types


class _Checker:
    def __init__(self, request: Request) -> None:
        self.request = request
        self.attached: set[str] = set()
        chat = request.fields.get("chat_id", "")
        self.private_chat = chat.isdigit()

    # ---- top-level parameters (form fields: strings) ----------------------------------
    def top_level(self, field: dict[str, Any], raw: str) -> Any:
        types: list[str] = field["types"]
        errors: list[Refusal] = []
        for declared in types:
            try:
                return self.form_value(field["name"], declared, raw)
            except Refusal as error:
                errors.append(error)
        raise errors[0]

    def form_value(self, name: str, declared: str, raw: str) -> Any:
        if declared in ("String", "Integer", "Float", "Boolean"):
            return self.scalar(name, declared, _scalar_of_form(declared, raw))
        if declared == "InputFile":
            if raw.startswith("attach://"):
                return self.attachment(raw)
            raise Refusal(f"{name}: expected an uploaded file")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as error:
            raise Refusal(f"can't parse {name} JSON object") from error
        return self.value(name, declared, value)

    def upload(self, name: str) -> bytes:
        self.attached.add(name)
        return self.request.uploads[name]

    def attachment(self, reference: str) -> bytes:
        name = reference.removeprefix("attach://")
        if name not in self.request.uploads:
            raise Refusal(f"wrong file identifier/HTTP URL specified: no part {name!r}")
        self.attached.add(name)
        return self.request.uploads[name]

    def attachments_used(self) -> None:
        for name, data in self.request.uploads.items():
            if name not in self.attached:
                raise Refusal(f"uploaded part {name!r} is not used by any parameter")
            if self.request.method in ("sendPhoto", "editMessageMedia"):
                _check_photo(data)

    # ---- JSON values ----------------------------------------------------------------
    def value(self, name: str, declared: str, value: Any) -> Any:
        if declared.startswith("Array of "):
            if not isinstance(value, list):
                raise Refusal(f'field "{name}" must be an Array')
            inner = declared.removeprefix("Array of ")
            return [self.value(name, inner, item) for item in value]
        if declared in ("String", "Integer", "Float", "Boolean"):
            return self.scalar(name, declared, value)
        if declared == "InputFile":
            if isinstance(value, str) and value.startswith("attach://"):
                return self.attachment(value)
            raise Refusal(f"{name}: expected attach://<file_attach_name>")
        return self.object(declared, value)

    def scalar(self, name: str, declared: str, value: Any) -> Any:
        ok = {
            "String": isinstance(value, str),
            "Integer": isinstance(value, int) and not isinstance(value, bool),
            "Float": isinstance(value, int | float) and not isinstance(value, bool),
            "Boolean": isinstance(value, bool),
        }[declared]
        if not ok:
            raise Refusal(f'field "{name}" must be of type {declared}')
        return value

    def object(self, type_name: str, value: Any) -> dict[str, Any]:
        spec = schema()["types"].get(type_name)
        if spec is None:
            raise Refusal(f"type {type_name} is not in the Bot API")
        if not isinstance(value, dict):
            raise Refusal(f"can't parse {type_name}: expected an Object")
        if "subtypes" in spec:
            return self.object(_subtype(type_name, spec, value), value)
        fields = {field["name"]: field for field in spec.get("fields", [])}
        for key in value:
            if key not in fields:
                raise Refusal(f"can't parse {type_name}: unknown field {key!r}")
        for field_name, field in fields.items():
            if field_name not in value:
                if field["required"]:
                    raise Refusal(
                        f"can't parse {_shown(type_name)}: Can't find field \"{field_name}\""
                    )
                continue
            reference = value[field_name]
            if isinstance(reference, str) and reference.startswith("attach://"):
                if "attach://" not in field["description"]:
                    raise Refusal(
                        f"can't parse {_shown(type_name)}: {field_name} can't be attached"
                    )
                self.attachment(reference)
            errors: list[Refusal] = []
            for declared in field["types"]:
                try:
                    self.value(field_name, declared, value[field_name])
                    break
                except Refusal as error:
                    errors.append(error)
            else:
                raise errors[0]
            self.limits("", field, value[field_name], type_name)
        if type_name == "InlineKeyboardButton":
            self.button(spec, value)
        return value

    def button(self, spec: dict[str, Any], button: dict[str, Any]) -> None:
        found = _ONE_ACTION.search(" ".join(spec["description"]))
        passive = (
            {name.strip() for name in re.split(r",|\band\b", found.group(1))} if found else {"text"}
        )
        actions = [key for key in button if key not in passive]
        if len(actions) != 1:
            raise Refusal(
                "can't parse inline keyboard button: "
                + ("Text buttons are unallowed in the inline keyboard" if not actions
                   else f"exactly one action expected, got {', '.join(sorted(actions))}")
            )  # fmt: skip
        if not str(button.get("text", "")).strip():
            raise Refusal("BUTTON_TEXT_INVALID")
        url = button.get("url")
        if url is not None and not re.match(r"(https?|tg)://\S+$", url):
            raise Refusal(f"inline keyboard button URL '{url}' is invalid")
        if "web_app" in button:
            app_url = button["web_app"].get("url", "")
            if not app_url.startswith("https://"):
                raise Refusal(
                    f"inline keyboard button Web App URL '{app_url}' is invalid: "
                    "Only HTTPS links are allowed"
                )
            if not self.private_chat:
                raise Refusal("BUTTON_TYPE_INVALID")

    # ---- documented limits ----------------------------------------------------------
    def limits(self, method: str, field: dict[str, Any], value: Any, type_name: str) -> None:
        found = _LIMIT.search(field["description"])
        if not found or not isinstance(value, str):
            return
        low, high, unit = int(found.group(1)), int(found.group(2)), found.group(3)
        # Telegram counts text in UTF-16 code units, after stripping the ends.
        text = value.strip() if unit == "characters" else value
        size = len(text.encode("utf-16-le")) // 2 if unit == "characters" else len(text.encode())
        name = field["name"]
        owner = method or type_name
        if size < low:
            raise Refusal(
                _EMPTY.get((name, method), _EMPTY.get((name, ""), f"{owner}.{name} is empty"))
            )
        if size > high:
            raise Refusal(
                _TOO_LONG.get(
                    (name, method), _TOO_LONG.get((name, ""), f"{owner}.{name} is too long")
                )
            )


def _scalar_of_form(declared: str, raw: str) -> Any:
    """A form field read as Telegram reads it (PTB sends JSON for non-strings)."""
    if declared == "String":
        return raw
    if declared == "Boolean":
        return {"true": True, "false": False}.get(raw.lower(), raw)
    try:
        return int(raw) if declared == "Integer" else float(raw)
    except ValueError:
        return raw


def _subtype(type_name: str, spec: dict[str, Any], value: dict[str, Any]) -> str:
    """The concrete type of an abstract one (InputMedia -> InputMediaPhoto) by
    the value of its discriminating field (``type``, ``source``, ``status``)."""
    for sub in spec["subtypes"]:
        for field in schema()["types"][sub].get("fields", []):
            found = _DISCRIMINATOR.search(field["description"])
            if field["required"] and found and value.get(field["name"]) == found.group(1):
                return str(sub)
    raise Refusal(f"can't parse {type_name}: unsupported type {value.get('type')!r}")


def _shown(type_name: str) -> str:
    """The name Telegram's message gives a type: InputMediaPhoto is InputMedia."""
    for abstract in ("InputMedia", "InputPaidMedia", "InlineQueryResult"):
        if type_name.startswith(abstract):
            return abstract
    return type_name


def _check_photo(data: bytes) -> None:
    if len(data) > PHOTO_MAX_BYTES:
        raise Refusal("PHOTO_SAVE_FILE_INVALID")
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
            width, height = image.size
    except Exception as error:  # noqa: BLE001 - any unreadable image is refused alike
        raise Refusal("IMAGE_PROCESS_FAILED") from error
    if width + height > 10000 or max(width, height) > 20 * min(width, height):
        raise Refusal("PHOTO_INVALID_DIMENSIONS")

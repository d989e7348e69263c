"""JSON types as the schema says (issue 15): DRF coerces ("1" for an integer, 0 for a boolean, 5 for a
string), the OpenAPI schema promises the JSON types. `strict_json_types` walks a serializer's fields and
refuses a body whose values have another JSON type, with the same 400 `invalid_input` shape as DRF's
own field errors. Called by `tournaments.apis._valid` before the serializer runs."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

_NUMBER = (int, float)


def _type_error(field: serializers.Field, value: Any) -> str | None:
    """A message when `value` is not of the JSON type `field` documents, else None."""
    if value is None:
        return None  # allow_null / required are the serializer's business
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be a boolean (true or false)."
    if isinstance(field, serializers.IntegerField):
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else "Must be an integer."
    if isinstance(field, serializers.FloatField | serializers.DecimalField):
        ok = isinstance(value, _NUMBER) and not isinstance(value, bool)
        return None if ok else "Must be a number."
    if isinstance(field, serializers.ChoiceField):
        return None  # the choice itself is checked by the serializer
    if isinstance(field, serializers.DateField | serializers.DateTimeField | serializers.CharField):
        return None if isinstance(value, str) else "Must be a string."
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return "Must be a list."
        for item in value:
            message = _type_error(field.child, item)
            if message:
                return message
        return None
    if isinstance(field, serializers.DictField):
        if not isinstance(value, dict):
            return "Must be an object."
        for item in value.values():
            message = _type_error(field.child, item)
            if message:
                return message
        return None
    if isinstance(field, serializers.Serializer):
        return None if isinstance(value, dict) else "Must be an object."
    return None


def strict_json_types(serializer_class: type[serializers.Serializer], data: dict[str, Any]) -> None:
    fields = serializer_class().fields
    errors = {}
    for name, value in data.items():
        field = fields.get(name)
        if field is None or field.read_only:
            continue
        message = _type_error(field, value)
        if message:
            errors[name] = [message]
    if errors:
        raise serializers.ValidationError(errors)

import json

from server.rendering.document import json_for_script


def test_inlined_data_cannot_close_the_script_element_or_open_markup() -> None:
    hostile = {"name": "</script><script>alert(1)</script><!-- & \u2028\u2029"}
    text = str(json_for_script(hostile))
    for forbidden in ("<", ">", "&", "\u2028", "\u2029"):
        assert forbidden not in text
    assert "\\u003C/script\\u003E" in text


def test_inlined_data_parses_back_to_exactly_what_was_given() -> None:
    data = {"name": "Dead Sea résidence — رخام </script>", "items": [1, "a&b", None]}
    assert json.loads(str(json_for_script(data))) == data

"""Data inlined into a page as a non-executable JSON script element."""

from __future__ import annotations

import json

from markupsafe import Markup

# As Django's json_script: no content can close the element (</script>), open
# a comment (<!--) or be read as markup, and U+2028/U+2029 stay escaped for
# any consumer that treats the text as JavaScript.
_ESCAPES = {
    ord("<"): "\\u003C",
    ord(">"): "\\u003E",
    ord("&"): "\\u0026",
    ord("\u2028"): "\\u2028",
    ord("\u2029"): "\\u2029",
}


def json_for_script(data: object) -> Markup:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.translate(_ESCAPES))  # noqa: S704 - escaped just above

"""One log line per studio change: who made it, what it was, and when (the line's time).

With LOG_FORMAT=json each change is one JSON object with the fields
`studio_action`, `who`, `collection` and `document`.
"""

from __future__ import annotations

import logging

from server.content.models import Collection

logger = logging.getLogger("server.studio.audit")


def log_change(*, who: str, action: str, collection: Collection, document_id: str) -> None:
    logger.info(
        "%s %s %s/%s",
        who,
        action,
        collection.firestore_name,
        document_id,
        extra={
            "studio_action": action,
            "who": who,
            "collection": collection.firestore_name,
            "document": document_id,
        },
    )

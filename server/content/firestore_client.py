# The library's client internals have no type hints.
# mypy: disable-error-code="no-untyped-call"
"""A Firestore client whose connection is its own.

gRPC shares connections between channels to the same address (a process-wide
subchannel pool): a new client would go on using the connection the old one
found dead. After a read with no answer, the store needs a client on a new
connection (server/content/firestore.py), so each client here has a pool of
its own. Otherwise it is the library's client, with the library's channel
options (its keepalive where it sets one).
"""

from __future__ import annotations

from typing import Any

import grpc
from google.cloud import firestore
from google.cloud.firestore_v1 import base_client

_OWN_CONNECTION = ("grpc.use_local_subchannel_pool", 1)


class OwnConnectionClient(firestore.Client):
    # The library's untyped hook, overridden as it is.
    def _firestore_api_helper(
        self,
        transport: Any,  # noqa: ANN401
        client_class: Any,  # noqa: ANN401
        client_module: Any,  # noqa: ANN401
    ) -> Any:  # noqa: ANN401
        if self._firestore_api_internal is None:
            if self._emulator_host is not None:
                # As the library's emulator channel: plaintext, the "owner" token.
                channel = grpc.insecure_channel(
                    self._emulator_host,
                    options=[
                        ("Authorization", "Bearer owner"),
                        *base_client._GRPC_MSG_SIZE_OPTIONS,
                        _OWN_CONNECTION,
                    ],
                )
            else:
                channel = transport.create_channel(
                    self._target,
                    credentials=self._credentials,
                    options=[*base_client._DEFAULT_CHANNEL_OPTIONS, _OWN_CONNECTION],
                )
            self._transport = transport(host=self._target, channel=channel)
            self._firestore_api_internal = client_class(
                transport=self._transport, client_options=self._client_options
            )
            client_module._client_info = self._client_info
        return self._firestore_api_internal

    def close_connection(self) -> None:
        """Close the channel: every call on it ends at once, listeners included."""
        if self._firestore_api_internal is not None:
            self._transport.close()
        self.close()

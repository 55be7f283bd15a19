"""A fault-injecting stand-in for Firestore, a real gRPC server speaking RunQuery to the real
client (via FIRESTORE_EMULATOR_HOST): it forces the failures the emulator cannot."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from concurrent import futures
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

import grpc
from google.cloud.firestore_v1.types import document as document_types
from google.cloud.firestore_v1.types import firestore as firestore_types
from google.protobuf import timestamp_pb2

from harness.firestore_emulator import PROJECT
from harness.started import OnLoopback

Fields = Mapping[str, str]


class Fault(Enum):
    NONE = "none"
    UNAVAILABLE = "unavailable"
    PERMISSION_DENIED = "permission denied"
    SLOW = "slow"  # answers after 30 s
    BROKEN_STREAM = "broken stream"  # sends part of the collection, then fails


@dataclass
class FirestoreStandIn(OnLoopback):
    project: ClassVar[str] = PROJECT
    collections: dict[str, dict[str, Fields]] = field(default_factory=dict)
    fault: Fault = Fault.NONE
    reads: int = 0
    port: int = field(default=0, init=False)  # chosen by start()
    _server: grpc.Server = field(init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def start(self) -> FirestoreStandIn:
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=32))
        handler = grpc.unary_stream_rpc_method_handler(
            self._run_query,
            request_deserializer=firestore_types.RunQueryRequest.deserialize,
            response_serializer=firestore_types.RunQueryResponse.serialize,
        )
        self._server.add_registered_method_handlers(
            "google.firestore.v1.Firestore", {"RunQuery": handler}
        )
        self.port = self._server.add_insecure_port("127.0.0.1:0")
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop(grace=None).wait()

    def _run_query(
        self, request: firestore_types.RunQueryRequest, context: grpc.ServicerContext
    ) -> Iterator[firestore_types.RunQueryResponse]:
        with self._lock:
            self.reads += 1
        collection = request.structured_query.from_[0].collection_id
        documents = list(self.collections.get(collection, {}).items())
        fault = self.fault
        if fault is Fault.UNAVAILABLE:
            context.abort(grpc.StatusCode.UNAVAILABLE, "stand-in: unavailable")
        if fault is Fault.PERMISSION_DENIED:
            context.abort(grpc.StatusCode.PERMISSION_DENIED, "stand-in: missing permissions")
        if fault is Fault.SLOW:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and context.is_active():
                time.sleep(0.05)
        now = timestamp_pb2.Timestamp()
        now.GetCurrentTime()
        for index, (doc_id, fields) in enumerate(documents):
            if fault is Fault.BROKEN_STREAM and index == len(documents) // 2:
                context.abort(grpc.StatusCode.UNAVAILABLE, "stand-in: stream broken")
            values = {key: document_types.Value(string_value=text) for key, text in fields.items()}
            document = document_types.Document(
                name=f"{request.parent}/{collection}/{doc_id}",
                fields=values,
                create_time=now,
                update_time=now,
            )
            yield firestore_types.RunQueryResponse(document=document, read_time=now)

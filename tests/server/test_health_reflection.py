"""The standard health service and server reflection answer on the arena's port."""

from __future__ import annotations

from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tests.server.harness import WAIT_S, ArenaHarness


def test_health_reports_serving(harness: ArenaHarness) -> None:
    stub = health_pb2_grpc.HealthStub(harness.channel)
    for service in ("", "tourney.v1.Arena"):
        reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=WAIT_S)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_the_arena_and_serves_its_proto(harness: ArenaHarness) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(harness.channel)
    requests = iter([
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="tourney.v1.Arena"),
    ])
    replies = list(stub.ServerReflectionInfo(requests, timeout=WAIT_S))
    services = {s.name for s in replies[0].list_services_response.service}
    assert "tourney.v1.Arena" in services and "grpc.health.v1.Health" in services
    assert replies[1].file_descriptor_response.file_descriptor_proto

package dev.engram.sqlite;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.spi.StoredMemory;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Test builder of memories; every field can be set, the rest get plain defaults. */
final class Memories {
  static final Instant T0 = Instant.parse("2024-05-01T08:00:00Z");
  static final int DIM = 4;

  String tenant = "t1";
  String id = UUID.randomUUID().toString();
  String text = "likes tea";
  Map<String, Object> metadata = Map.of();
  String userId = "alice";
  String agentId;
  String runId;
  String actorId;
  Role role;
  Instant createdAt = T0;
  Instant updatedAt;
  Instant eventTime;
  List<String> sourceIds = List.of();
  LocalDate expirationDate;
  float[] embedding = {0.5f, -0.25f, 1e-7f, 3.0f};

  static Memories memory() {
    return new Memories();
  }

  Memories tenant(String value) {
    tenant = value;
    return this;
  }

  Memories id(String value) {
    id = value;
    return this;
  }

  Memories text(String value) {
    text = value;
    return this;
  }

  Memories metadata(Map<String, Object> value) {
    metadata = value;
    return this;
  }

  Memories scope(String user, String agent, String run) {
    userId = user;
    agentId = agent;
    runId = run;
    return this;
  }

  Memories actor(String actor, Role r) {
    actorId = actor;
    role = r;
    return this;
  }

  Memories created(Instant value) {
    createdAt = value;
    return this;
  }

  Memories updated(Instant value) {
    updatedAt = value;
    return this;
  }

  Memories eventTime(Instant value) {
    eventTime = value;
    return this;
  }

  Memories sources(List<String> value) {
    sourceIds = value;
    return this;
  }

  Memories expires(LocalDate value) {
    expirationDate = value;
    return this;
  }

  Memories embedding(float[] value) {
    embedding = value;
    return this;
  }

  MemoryItem item() {
    return new MemoryItem(
        id,
        text,
        Hashes.md5(text),
        metadata,
        userId,
        agentId,
        runId,
        actorId,
        role,
        createdAt,
        updatedAt == null ? createdAt : updatedAt,
        eventTime,
        sourceIds,
        expirationDate);
  }

  StoredMemory stored() {
    return new StoredMemory(tenant, item(), embedding);
  }
}

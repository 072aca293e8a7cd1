package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.json.MemoryJson;
import dev.engram.server.auth.ApiKeyInfo;
import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.auth.NewApiKey;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code engram keys create|list|revoke}: the server's API keys, in the data directory's server.db,
 * or in the PostgreSQL schema every server on the database shares ({@code store.provider:
 * postgres}).
 */
@Command(
    name = "keys",
    description =
        "Manage the server's API keys (stored as hashes in DATA_DIR/server.db, or in the"
            + " PostgreSQL schema with store.provider: postgres).",
    subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
final class KeysCommand implements Callable<Integer> {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return BaseCommand.EXIT_BAD_INPUT;
  }

  /**
   * Runs work on the key store of a command's settings (server.db in its data directory, or the
   * PostgreSQL schema with {@code store.provider: postgres}), closing it afterwards.
   */
  static <T> T withKeys(BaseCommand command, java.util.function.Function<ApiKeyStore, T> work) {
    try (ServerStores stores =
        ServerStores.open(
            command.settings(), command.dataDir(), System.getenv(), command.clock())) {
      return work.apply(stores.keys());
    }
  }

  static ObjectNode keyJson(ApiKeyInfo k) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("id", k.id());
    o.put("tenant", k.tenant());
    o.put("role", k.role().wireName());
    o.put("label", k.label());
    o.put("prefix", k.prefix());
    o.put("created_at", MemoryJson.time(k.createdAt()));
    o.put("revoked_at", k.revokedAt().map(MemoryJson::time).orElse(null));
    return o;
  }

  @Command(
      name = "create",
      description = "Create a key for a tenant; the key is printed once and never stored.")
  static final class Create extends BaseCommand {
    @Option(
        names = "--tenant",
        required = true,
        paramLabel = "TENANT",
        description = "The tenant the key reads" + " and writes.")
    String tenant;

    @Option(
        names = "--admin",
        description = "An admin key (may delete scopes, reset, export, read metrics).")
    boolean admin;

    @Option(
        names = "--label",
        paramLabel = "TEXT",
        description = "A label to recognise the key by.")
    String label;

    @Override
    protected int run() {
      NewApiKey k =
          withKeys(
              this, keys -> keys.create(tenant, admin ? KeyRole.ADMIN : KeyRole.MEMBER, label));
      if (json()) {
        ObjectNode o = keyJson(k.info());
        o.put("key", k.secret());
        printJson(o);
      } else {
        out().println(k.secret());
        err()
            .println(
                "created key "
                    + k.info().id()
                    + " for tenant '"
                    + k.info().tenant()
                    + "' ("
                    + k.info().role().wireName()
                    + "); it is shown only now");
      }
      return EXIT_OK;
    }
  }

  @Command(name = "list", description = "List keys (ids, tenants, roles; never the keys).")
  static final class ListKeys extends BaseCommand {
    @Override
    protected int run() {
      java.util.List<ApiKeyInfo> all = withKeys(this, ApiKeyStore::list);
      if (json()) {
        ArrayNode a = MemoryJson.mapper().createArrayNode();
        all.forEach(k -> a.add(keyJson(k)));
        printJson(a);
      } else {
        for (ApiKeyInfo k : all) {
          out()
              .printf(
                  "%s  %-8s %-6s %s  %s%s%n",
                  k.id(),
                  k.tenant(),
                  k.role().wireName(),
                  k.createdAt(),
                  k.label(),
                  k.active() ? "" : "  (revoked " + k.revokedAt().orElseThrow() + ")");
        }
      }
      return EXIT_OK;
    }
  }

  @Command(
      name = "revoke",
      description = "Revoke a key by id; it stops working on the next request.")
  static final class Revoke extends BaseCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The key's id (from keys list).")
    String id;

    @Override
    protected int run() {
      if (!withKeys(this, keys -> keys.revoke(id))) {
        throw new dev.engram.ValidationException("id", "no active key with id '" + id + "'");
      }
      out().println("revoked " + id);
      return EXIT_OK;
    }
  }
}

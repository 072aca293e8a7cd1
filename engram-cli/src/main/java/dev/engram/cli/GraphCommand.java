package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.graph.TimeView;
import dev.engram.json.MemoryJson;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code engram graph}: the graph memory of a scope. {@code relations NAME} lists an entity's
 * relations, {@code around NAME} the relations within some hops, {@code delete-entity NAME} deletes
 * the entity with its edges. By default only relations that hold now are shown; {@code --as-of}
 * shows what held then, {@code --all} includes invalidated ones.
 */
@Command(
    name = "graph",
    description = "Inspect or edit the graph memory (entities and relations).",
    subcommands = {
      GraphCommand.Relations.class,
      GraphCommand.Around.class,
      GraphCommand.DeleteEntity.class
    })
final class GraphCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine()
        .getErr()
        .println("engram graph: missing subcommand (relations, around, delete-entity)");
    spec.commandLine().usage(spec.commandLine().getErr());
    return BaseCommand.EXIT_BAD_INPUT;
  }

  /** Options shared by the reading subcommands. */
  static final class ViewOptions {
    @Option(
        names = "--as-of",
        paramLabel = "TIME",
        converter = Converters.InstantConverter.class,
        description = "Show the relations that held at this time (ISO-8601).")
    Instant asOf;

    @Option(names = "--all", description = "Include invalidated relations.")
    boolean all;

    TimeView view() {
      if (asOf != null && all) {
        throw new dev.engram.ValidationException("as_of", "--as-of and --all exclude each other");
      }
      return all ? TimeView.ALL : asOf != null ? TimeView.asOf(asOf) : TimeView.CURRENT;
    }
  }

  /** Prints relations as text lines or as {@code {"relations": [...]}}. */
  static void print(BaseCommand c, List<GraphRelation> relations) {
    if (c.json()) {
      ObjectNode o = MemoryJson.mapper().createObjectNode();
      ArrayNode list = o.putArray("relations");
      relations.forEach(r -> list.add(MemoryJson.relation(r)));
      c.printJson(o);
    } else if (relations.isEmpty()) {
      c.out().println("no relations");
    } else {
      for (GraphRelation r : relations) {
        c.out()
            .println(
                r.source()
                    + " -["
                    + r.relationship()
                    + "]-> "
                    + r.destination()
                    + "  ("
                    + r.fact()
                    + ")  "
                    + (r.validAt() == null ? "?" : r.validAt())
                    + " .. "
                    + (r.invalidAt() == null ? "now" : r.invalidAt()));
      }
    }
  }

  /** {@code engram graph relations NAME}. */
  @Command(name = "relations", description = "List the relations of an entity.")
  static final class Relations extends BaseCommand {
    @Mixin ScopeOptions scope;

    @Mixin ViewOptions view;

    @Parameters(
        index = "0",
        paramLabel = "NAME",
        description = "The entity's name (case and punctuation ignored).")
    String name;

    @Override
    protected int run() {
      try (Memory memory = openMemory(false)) {
        print(this, memory.entityRelations(scope.scope(), name, view.view()));
      }
      return EXIT_OK;
    }
  }

  /** {@code engram graph around NAME --hops N}. */
  @Command(
      name = "around",
      description = "List the relations within some hops of an entity, nearest first.")
  static final class Around extends BaseCommand {
    @Mixin ScopeOptions scope;

    @Mixin ViewOptions view;

    @Option(
        names = "--hops",
        paramLabel = "N",
        defaultValue = "2",
        description = "How far to go (1-3, default 2).")
    int hops;

    @Parameters(index = "0", paramLabel = "NAME", description = "The entity's name.")
    String name;

    @Override
    protected int run() {
      try (Memory memory = openMemory(false)) {
        print(this, memory.graphAround(scope.scope(), name, hops, view.view()));
      }
      return EXIT_OK;
    }
  }

  /** {@code engram graph delete-entity NAME}. */
  @Command(name = "delete-entity", description = "Delete an entity and every relation touching it.")
  static final class DeleteEntity extends BaseCommand {
    @Mixin ScopeOptions scope;

    @Parameters(index = "0", paramLabel = "NAME", description = "The entity's name.")
    String name;

    @Override
    protected int run() {
      int deleted;
      try (Memory memory = openMemory(false)) {
        deleted = memory.deleteEntity(scope.scope(), name);
      }
      if (json()) {
        ObjectNode o = MemoryJson.mapper().createObjectNode();
        o.put("deleted_entities", deleted);
        printJson(o);
      } else {
        out()
            .println(
                "deleted "
                    + deleted
                    + (deleted == 1 ? " entity" : " entities")
                    + " named '"
                    + name
                    + "'");
      }
      return EXIT_OK;
    }
  }
}

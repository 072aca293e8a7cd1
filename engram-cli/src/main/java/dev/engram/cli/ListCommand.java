package dev.engram.cli;

import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.filter.Mem0Filters;
import dev.engram.json.MemoryJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code engram list}: a page of a scope's memories, newest first. */
@Command(name = "list", description = "List a scope's memories, newest first.")
final class ListCommand extends BaseCommand {
  @Mixin ScopeOptions scope;

  @Option(
      names = "--offset",
      paramLabel = "N",
      defaultValue = "0",
      description = "How many to skip (default: 0).")
  int offset;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "" + ListRequest.DEFAULT_LIMIT,
      description = "Page size (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--filter",
      paramLabel = "JSON",
      description = "mem0 filter; top-level user_id/agent_id/run_id give the scope.")
  String filter;

  @Option(names = "--include-expired", description = "Include expired memories.")
  boolean includeExpired;

  @Override
  protected int run() {
    Mem0Filters.Parsed parsed = Mem0Filters.parseWithScope(filter);
    ListRequest request =
        new ListRequest(
            scope.mergedWith(parsed.scope(), "filter"),
            parsed.filter(),
            offset,
            limit,
            includeExpired);
    Page<MemoryItem> page;
    try (Memory memory = openMemory(false)) {
      page = memory.list(request);
    }
    if (json()) {
      printJson(MemoryJson.page(page));
      return EXIT_OK;
    }
    page.items().forEach(m -> out().println(Text.listed(m)));
    if (page.items().isEmpty()) {
      out()
          .println(
              page.total() == 0
                  ? "no memories"
                  : "no memories at offset " + page.offset() + " (total " + page.total() + ")");
    } else {
      out()
          .println(
              "("
                  + (page.offset() + 1)
                  + "-"
                  + (page.offset() + page.items().size())
                  + " of "
                  + page.total()
                  + ")");
    }
    return EXIT_OK;
  }
}

package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.json.MemoryJson;
import dev.engram.langchain4j.PipelineAssembly;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;

/**
 * {@code engram demo}: extracts memories from the built-in conversation with the offline extractor
 * (no LLM, no API key, whatever engram.yaml says) and runs a few searches. Uses a temporary data
 * directory that is deleted afterwards, unless {@code --data-dir} is given (then the demo scope
 * {@code user_id=demo} there is replaced and kept).
 */
@Command(
    name = "demo",
    description =
        "Store a built-in conversation offline and show a few searches"
            + " (in a temporary data directory, deleted afterwards, unless --data-dir is given).")
final class DemoCommand extends BaseCommand {
  private static final int TOP = 3;

  @Override
  protected int run() throws IOException {
    try (WorkDirectory work =
        WorkDirectory.keptOrTemporary(common.explicitDataDir(), "engram-demo-")) {
      demo(work.path(), work.isTemporary());
    }
    return EXIT_OK;
  }

  /** The embedded store with the configured embedder and the default, offline inference. */
  private Memory openOffline(Path dir) {
    Embedder embedder = PipelineAssembly.embedder(settings(), System.getenv());
    return Engram.builder().storage(EmbeddedStorage.at(dir)).embedder(embedder).build();
  }

  private void demo(Path dir, boolean temporary) {
    Scope scope = Scope.user(DemoConversation.USER_ID);
    List<AddRequest> requests = new ArrayList<>();
    int messages = 0;
    for (List<Message> session : DemoConversation.sessions()) {
      requests.add(
          AddRequest.builder(scope)
              .messages(session)
              .timestamp(session.get(0).timestamp())
              .build());
      messages += session.size();
    }
    List<SearchResult> results = new ArrayList<>();
    int added = 0;
    try (Memory memory = openOffline(dir)) {
      int replaced = memory.deleteAll(scope);
      if (replaced > 0) {
        err().println("engram demo: replaced " + replaced + " earlier demo memories in " + dir);
      }
      for (AddResult r : memory.addBatch(requests)) {
        added += r.events().size();
      }
      for (String q : DemoConversation.QUERIES) {
        results.add(memory.search(SearchRequest.builder(scope, q).topK(TOP).build()));
      }
    }
    if (json()) {
      ObjectNode o = MemoryJson.mapper().createObjectNode();
      o.put("data_dir", temporary ? null : dir.toString());
      o.put("user_id", DemoConversation.USER_ID);
      o.put("messages", messages);
      o.put("added", added);
      ArrayNode searches = o.putArray("searches");
      for (int i = 0; i < results.size(); i++) {
        ObjectNode s = searches.addObject();
        s.put("query", DemoConversation.QUERIES.get(i));
        s.set("results", MemoryJson.searchResult(results.get(i)).get("results"));
      }
      printJson(o);
      return;
    }
    out()
        .println(
            "Engram demo: a conversation between Maya and Tom ("
                + messages
                + " messages in "
                + requests.size()
                + " sessions, March to June 2023),");
    out()
        .println(
            "extracted offline (no LLM: the offline extractor) into "
                + added
                + " memories of user_id="
                + DemoConversation.USER_ID
                + (temporary ? " in a temporary data directory." : " in " + dir + "."));
    for (int i = 0; i < results.size(); i++) {
      out().println();
      out().println("> " + DemoConversation.QUERIES.get(i));
      var hits = results.get(i).hits();
      for (int k = 0; k < hits.size(); k++) {
        out()
            .println(
                String.format(
                    Locale.ROOT,
                    "  %d. %.3f  %s",
                    k + 1,
                    hits.get(k).score(),
                    Text.labelled(hits.get(k).memory())));
      }
    }
    out().println();
    if (temporary) {
      out()
          .println(
              "The temporary data directory was deleted. Keep the data with: engram demo --data-dir DIR");
    } else {
      out()
          .println(
              "Try: engram search --data-dir "
                  + dir
                  + " --user-id "
                  + DemoConversation.USER_ID
                  + " \"who has a dog?\"");
    }
  }
}

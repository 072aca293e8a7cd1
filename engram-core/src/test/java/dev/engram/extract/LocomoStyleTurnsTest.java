package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.spi.MemoryInference.Add;
import dev.engram.spi.MemoryInference.InferenceContext;
import dev.engram.spi.MemoryInference.Noop;
import dev.engram.spi.MemoryInference.PlannedChange;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two sessions of a chat between Priya and Tom in the style of LoCoMo (our own text, not the
 * dataset's): each turn has a speaker, a dia_id-like source id and the session time. The second
 * session repeats a fact of the first.
 */
class LocomoStyleTurnsTest {

  /** A Monday. */
  private static final Instant SESSION_1 = Instant.parse("2023-08-14T18:20:00Z");

  /** A Saturday. */
  private static final Instant SESSION_2 = Instant.parse("2023-09-02T10:05:00Z");

  private final OfflineExtractor extractor = OfflineExtractor.create();

  private static Message turn(String speaker, String id, Instant at, String text) {
    return new Message(Role.USER, text, speaker, at, id);
  }

  private List<PlannedChange> plan(List<Message> turns, FakeScopeMemories memories) {
    return extractor.plan(
        new InferenceContext(
            "default", Scope.user("priya-tom"), turns, List.of(), Map.of(), null, memories));
  }

  @Test
  void extractsAttributedDatedFactsAndNoopsARepeatInALaterSession() {
    List<PlannedChange> first =
        plan(
            List.of(
                turn(
                    "Priya",
                    "D1:1",
                    SESSION_1,
                    "Hi Tom! Long time no see. How's everything going?"),
                turn(
                    "Tom",
                    "D1:2",
                    SESSION_1,
                    "Hey Priya! Pretty hectic, honestly. I started a new job at a bike shop last"
                        + " week and I'm still learning the ropes."),
                turn(
                    "Priya",
                    "D1:3",
                    SESSION_1,
                    "That's awesome! Congrats! My sister and I went kayaking two days ago, it"
                        + " was my first time."),
                turn("Tom", "D1:4", SESSION_1, "Kayaking sounds fun! Did you fall in? 😄"),
                turn(
                    "Priya",
                    "D1:5",
                    SESSION_1,
                    "Haha, nope! We're planning to go again next month. I also want to try"
                        + " paddleboarding."),
                turn(
                    "Tom",
                    "D1:6",
                    SESSION_1,
                    "Nice. I'm training for a half marathon in October, so I run every morning"
                        + " before work."),
                turn("Priya", "D1:7", SESSION_1, "Wow, good luck! Talk soon!")),
            new FakeScopeMemories());

    // Statements of two content words are kept ("Pretty hectic", "Kayaking sounds fun"), a set
    // phrase among them:
    // what later questions ask about is often that short. Greetings, questions and reactions are
    // not.
    assertThat(first)
        .containsExactly(
            new Add("Long time no see.", "Priya", Role.USER, SESSION_1, List.of("D1:1")),
            new Add("Pretty hectic, honestly.", "Tom", Role.USER, SESSION_1, List.of("D1:2")),
            new Add(
                "Tom started a new job at a bike shop last week (the week of 7 August 2023) and Tom is still"
                    + " learning the ropes.",
                "Tom",
                Role.USER,
                SESSION_1,
                List.of("D1:2")),
            new Add(
                "Priya's sister and Priya went kayaking two days ago (12 August 2023), it was Priya's first time.",
                "Priya",
                Role.USER,
                SESSION_1,
                List.of("D1:3")),
            new Add("Kayaking sounds fun!", "Tom", Role.USER, SESSION_1, List.of("D1:4")),
            new Add(
                "Priya: we're planning to go again next month (September 2023).",
                "Priya",
                Role.USER,
                SESSION_1,
                List.of("D1:5")),
            new Add(
                "Priya also wants to try paddleboarding.",
                "Priya",
                Role.USER,
                SESSION_1,
                List.of("D1:5")),
            new Add(
                "Tom is training for a half marathon in October, so Tom runs every morning before work.",
                "Tom",
                Role.USER,
                SESSION_1,
                List.of("D1:6")));

    FakeScopeMemories stored = new FakeScopeMemories();
    for (int i = 0; i < first.size(); i++) {
      stored.with("s1-" + i, ((Add) first.get(i)).text());
    }
    List<PlannedChange> second =
        plan(
            List.of(
                turn(
                    "Tom",
                    "D2:1",
                    SESSION_2,
                    "Priya! Guess what? I finished my first half marathon last Sunday!"),
                turn(
                    "Priya",
                    "D2:2",
                    SESSION_2,
                    "No way, that's amazing! I adopted a rescue cat yesterday, her name is"
                        + " Mochi."),
                turn(
                    "Tom",
                    "D2:3",
                    SESSION_2,
                    "Congrats on Mochi! I'm still training for a half marathon in October, so I"
                        + " run every morning before work."),
                turn(
                    "Priya",
                    "D2:4",
                    SESSION_2,
                    "Thanks! I've been reading a lot about cat nutrition lately."),
                turn(
                    "Tom", "D2:5", SESSION_2, "Come by the shop next Friday, I'll fix your bike.")),
            stored);

    // The repeat adds one token ("still") to the stored memory's 15: Jaccard 15/16 = 0.94.
    assertThat(second)
        .containsExactly(
            new Add(
                "Tom finished Tom's first half marathon last Sunday (27 August 2023)!",
                "Tom",
                Role.USER,
                SESSION_2,
                List.of("D2:1")),
            new Add(
                "Priya adopted a rescue cat yesterday (1 September 2023), her name is Mochi.",
                "Priya",
                Role.USER,
                SESSION_2,
                List.of("D2:2")),
            new Noop("s1-7"),
            new Add(
                "Priya has been reading a lot about cat nutrition lately.",
                "Priya",
                Role.USER,
                SESSION_2,
                List.of("D2:4")),
            new Add(
                "Come by the shop next Friday (8 September 2023), Tom will fix your bike.",
                "Tom",
                Role.USER,
                SESSION_2,
                List.of("D2:5")));
  }
}

package dev.engram.cli;

import dev.engram.Message;
import dev.engram.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The built-in conversation of {@code engram demo}: Maya and Tom, two friends, catching up over
 * three sessions in 2023 about moves, pets, jobs, hobbies and plans. Every turn is a user message
 * named after its speaker, with a LoCoMo-style source id ({@code D<session>:<turn>}) and its
 * session's date.
 */
final class DemoConversation {
  /** The scope the demo writes to. */
  static final String USER_ID = "demo";

  /** Searches the demo runs, each answerable from the conversation. */
  static final List<String> QUERIES =
      List.of(
          "Where does Maya live?",
          "What animals do Maya and Tom own?",
          "What job does Tom have?",
          "What are the plans for July?",
          "Who goes surfing or running?");

  /**
   * For each of {@link #QUERIES}, in order, words of which at least one is in every memory that
   * answers it (lower case): the demo shows an answer first, and keeps it at threshold 0.5 ({@code
   * DemoAnswersTest}).
   */
  static final List<List<String>> ANSWERS =
      List.of(
          List.of("lisbon", "alfama"),
          List.of("beagle", "biscuit", "pixel"),
          List.of("nurse"),
          List.of("july"),
          List.of("surf", "marathon", "run three times"));

  private static final String[][] SESSION_1 = {
    {
      "Maya",
      "Big news: I finally moved to Lisbon last week. My new flat is in Alfama, close to the river."
    },
    {"Tom", "Congratulations! Did Biscuit come with you?"},
    {"Maya", "Of course, my beagle Biscuit flew with me. He already loves the old tiled streets."},
    {
      "Tom", "I'm still in Berlin, but I just started a new job as a nurse at the Charite hospital."
    },
    {
      "Maya", "That's great. I keep working remotely as a data engineer for a solar energy company."
    },
  };
  private static final String[][] SESSION_2 = {
    {"Tom", "I adopted a grey cat called Pixel from the animal shelter last weekend."},
    {"Maya", "So cute! I signed up for Portuguese lessons on Tuesday evenings, by the way."},
    {"Tom", "I'm training for the Berlin half marathon in September; I run three times a week."},
    {"Maya", "And I started surfing at Costa da Caparica. I fell off the board about fifty times."},
    {"Tom", "My sister Lena is getting married in Porto in July, so I will visit Portugal then."},
  };
  private static final String[][] SESSION_3 = {
    {
      "Maya",
      "Bad news: the doctor says I'm allergic to cats, so I'll need antihistamines to visit you."
    },
    {
      "Tom",
      "Noted! For the wedding I booked the train from Lisbon to Porto on the 14th of July. Join me?"
    },
    {"Maya", "Yes! Let's take that train together and get pasteis de nata at the station."},
    {"Tom", "Also, I stopped eating meat in May and I'm learning to cook vegetarian food."},
    {"Maya", "My favourite book lately is The Years by Annie Ernaux; you should read it."},
  };

  private DemoConversation() {}

  /** The sessions, oldest first, each a list of messages. */
  static List<List<Message>> sessions() {
    return List.of(
        session(1, "2023-03-04T18:20:00Z", SESSION_1),
        session(2, "2023-04-15T09:05:00Z", SESSION_2),
        session(3, "2023-06-20T20:40:00Z", SESSION_3));
  }

  private static List<Message> session(int n, String date, String[][] turns) {
    Instant at = Instant.parse(date);
    List<Message> out = new ArrayList<>(turns.length);
    for (int i = 0; i < turns.length; i++) {
      out.add(new Message(Role.USER, turns[i][1], turns[i][0], at, "D" + n + ":" + (i + 1)));
    }
    return out;
  }
}

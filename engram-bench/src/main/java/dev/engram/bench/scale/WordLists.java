package dev.engram.bench.scale;

import java.util.List;
import java.util.Map;

/**
 * The vocabulary of {@link SyntheticMemories}: fact templates (each at least ten words once its
 * {@code {slots}} are filled), trailing clauses that lengthen a fact, query templates, and one word
 * list per slot.
 */
final class WordLists {
  private WordLists() {}

  /** A fact template and the metadata category of the facts it makes. */
  record Template(String category, String text) {}

  static final List<Template> FACTS =
      List.of(
          new Template(
              "work",
              "moved to {city} in {month} {year} to work as a {job} at a {adjective} {company}"),
          new Template(
              "work",
              "works remotely as a {job} and visits the office in {city} about once a month"),
          new Template(
              "work",
              "got promoted to senior {job} in {month} and now leads a team of {number} people"),
          new Template(
              "work",
              "is looking for a new job as a {job} because the commute to {city} is too long"),
          new Template(
              "food",
              "prefers {drink} over coffee in the morning and usually skips breakfast on {weekday}s"),
          new Template(
              "food",
              "favourite dish is {food} from a small family restaurant near the {place} in {city}"),
          new Template(
              "food",
              "does not eat {food} any more after getting food poisoning on a trip to {city}"),
          new Template(
              "food",
              "is learning to cook {cuisine} food and tries a new recipe every {weekday} evening"),
          new Template(
              "health",
              "is allergic to {allergen} and always asks about it when eating out with {relative}"),
          new Template(
              "health",
              "has a dentist appointment on {weekday} the {day} of {month} and wants a reminder"),
          new Template(
              "health",
              "started running {number} kilometres every {weekday} morning to get fit for the {season}"),
          new Template(
              "health",
              "sleeps badly when it is hot and keeps a {color} fan next to the bed all summer"),
          new Template(
              "pets",
              "has a {adjective} {pet} named {petname} who loves long walks in the {place}"),
          new Template(
              "pets",
              "wants to adopt a {pet} once the family moves into a bigger apartment in {city}"),
          new Template(
              "pets",
              "takes {petname} the {pet} to the vet in {city} every {month} for a check-up"),
          new Template(
              "family",
              "celebrated the birthday of their {relative} on {month} {day} with dinner at a {cuisine} restaurant"),
          new Template(
              "family",
              "calls their {relative} in {country} every {weekday} evening to talk about the week"),
          new Template(
              "family",
              "{name} is the name of their {relative}, who lives in {city} with two children"),
          new Template(
              "family",
              "is planning a surprise party for their {relative} in {month} and has invited {number} guests"),
          new Template(
              "travel",
              "booked a trip to {country} for {month} {year} and plans to go {hobby} with {name}"),
          new Template(
              "travel",
              "visited {city} last {season} and said the {place} there was the best part of the trip"),
          new Template(
              "travel",
              "prefers travelling by train and avoids flying whenever the trip to {city} allows it"),
          new Template(
              "travel",
              "has never been to {country} but wants to see it before turning {age} years old"),
          new Template(
              "hobbies",
              "plays the {instrument} in a small band that rehearses every {weekday} evening in {city}"),
          new Template(
              "hobbies",
              "goes {hobby} most weekends and recently bought new {color} gear for the {season}"),
          new Template(
              "hobbies",
              "reads {genre} novels before bed and finished {number} books during the last {season}"),
          new Template(
              "hobbies",
              "started learning {language} in {year} because their {relative} lives in {country}"),
          new Template(
              "hobbies",
              "is a big fan of {sport} and watches every match with {name} on {weekday}s"),
          new Template(
              "plans",
              "wants to buy a {color} {car} before the {season} and is saving money for it"),
          new Template(
              "plans",
              "is thinking about moving from {city} to {country} within the next {number} years"),
          new Template(
              "plans", "plans to run a half marathon in {city} in {month} and trains with {name}"),
          new Template(
              "preferences",
              "likes {color} as a colour for clothes but dislikes it for furniture or walls"),
          new Template(
              "preferences",
              "prefers quiet {cuisine} restaurants to busy bars when meeting {name} after work"),
          new Template(
              "preferences",
              "listens to {genre} audiobooks while driving the {car} to work in {city}"));

  static final List<String> TAILS =
      List.of(
          "because it helps them relax after a long day",
          "and mentioned it again during the last conversation",
          "according to a message sent on a {weekday} in {month}",
          "which surprised {name} when they first heard about it",
          "and said that it matters a lot to them",
          "although the plan might change if work gets busy",
          "after talking it over with their {relative}",
          "ever since the start of {year}",
          "and would like to be reminded about it",
          "as mentioned while planning the {season} holidays",
          "even though {name} thinks it is a bad idea",
          "and asked for suggestions about it",
          "so weekends are usually busy",
          "like their {relative} did years ago");

  static final List<String> QUERIES =
      List.of(
          "where does the user work as a {job}",
          "what food is the user allergic to",
          "what is the name of the user's {pet}",
          "when is the trip to {country}",
          "which instrument does the user play",
          "what does the user like to drink in the morning",
          "{hobby} on weekends",
          "birthday of the user's {relative}",
          "does the user want to move to {city}",
          "favourite {cuisine} restaurant in {city}",
          "what car does the user want to buy",
          "how often does the user call their {relative}",
          "which language is the user learning",
          "dentist appointment in {month}",
          "books the user read last {season}");

  static final Map<String, List<String>> SLOTS =
      Map.ofEntries(
          Map.entry(
              "city",
              List.of(
                  "Lisbon",
                  "Berlin",
                  "Toronto",
                  "Austin",
                  "Osaka",
                  "Melbourne",
                  "Nairobi",
                  "Oslo",
                  "Seattle",
                  "Porto",
                  "Montreal",
                  "Denver",
                  "Krakow",
                  "Valencia",
                  "Dublin",
                  "Boston",
                  "Chicago",
                  "Munich")),
          Map.entry(
              "country",
              List.of(
                  "Japan",
                  "Portugal",
                  "Canada",
                  "Kenya",
                  "Norway",
                  "Peru",
                  "Vietnam",
                  "Iceland",
                  "Mexico",
                  "Italy",
                  "Greece",
                  "Chile",
                  "Morocco",
                  "Scotland",
                  "Thailand",
                  "Argentina")),
          Map.entry(
              "month",
              List.of(
                  "January",
                  "February",
                  "March",
                  "April",
                  "May",
                  "June",
                  "July",
                  "August",
                  "September",
                  "October",
                  "November",
                  "December")),
          Map.entry(
              "weekday",
              List.of(
                  "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")),
          Map.entry("season", List.of("spring", "summer", "autumn", "winter")),
          Map.entry("year", List.of("2019", "2020", "2021", "2022", "2023", "2024")),
          Map.entry(
              "day",
              List.of("first", "third", "fifth", "ninth", "twelfth", "fifteenth", "twentieth")),
          Map.entry(
              "number", List.of("two", "three", "four", "five", "six", "eight", "ten", "twelve")),
          Map.entry("age", List.of("thirty", "forty", "fifty", "sixty")),
          Map.entry(
              "job",
              List.of(
                  "nurse",
                  "software engineer",
                  "teacher",
                  "data analyst",
                  "architect",
                  "chef",
                  "graphic designer",
                  "accountant",
                  "physiotherapist",
                  "product manager",
                  "electrician",
                  "journalist")),
          Map.entry(
              "company",
              List.of(
                  "startup",
                  "hospital",
                  "bank",
                  "design studio",
                  "logistics company",
                  "university",
                  "bakery",
                  "law firm",
                  "game studio",
                  "city council")),
          Map.entry(
              "adjective",
              List.of(
                  "small",
                  "friendly",
                  "noisy",
                  "fast-growing",
                  "quiet",
                  "busy",
                  "young",
                  "well-known",
                  "tiny",
                  "lazy")),
          Map.entry(
              "drink",
              List.of(
                  "green tea",
                  "black tea",
                  "orange juice",
                  "hot chocolate",
                  "sparkling water",
                  "oat milk",
                  "matcha")),
          Map.entry(
              "food",
              List.of(
                  "sushi",
                  "lasagna",
                  "ramen",
                  "tacos",
                  "paella",
                  "falafel",
                  "curry",
                  "pho",
                  "dumplings",
                  "risotto",
                  "shrimp",
                  "mushroom soup",
                  "pancakes")),
          Map.entry(
              "cuisine",
              List.of(
                  "Thai",
                  "Italian",
                  "Ethiopian",
                  "Korean",
                  "Mexican",
                  "Lebanese",
                  "Indian",
                  "Japanese",
                  "Georgian",
                  "Peruvian")),
          Map.entry(
              "allergen",
              List.of(
                  "peanuts",
                  "shellfish",
                  "gluten",
                  "lactose",
                  "cats",
                  "pollen",
                  "penicillin",
                  "sesame")),
          Map.entry(
              "place",
              List.of(
                  "park",
                  "harbour",
                  "old town",
                  "botanical garden",
                  "river",
                  "market",
                  "beach",
                  "forest",
                  "castle")),
          Map.entry(
              "pet",
              List.of("dog", "cat", "parrot", "rabbit", "tortoise", "hamster", "beagle", "kitten")),
          Map.entry(
              "petname",
              List.of(
                  "Biscuit", "Luna", "Max", "Pepper", "Milo", "Nala", "Rocky", "Olive", "Ziggy")),
          Map.entry(
              "relative",
              List.of(
                  "sister",
                  "brother",
                  "mother",
                  "father",
                  "grandmother",
                  "cousin",
                  "uncle",
                  "aunt",
                  "partner",
                  "daughter",
                  "son")),
          Map.entry(
              "name",
              List.of(
                  "Maria", "Jonas", "Aiko", "Samir", "Chloe", "Diego", "Freya", "Kwame", "Lena",
                  "Tomasz", "Priya", "Oscar", "Ines", "Hugo")),
          Map.entry(
              "hobby",
              List.of(
                  "hiking",
                  "climbing",
                  "cycling",
                  "kayaking",
                  "birdwatching",
                  "skiing",
                  "camping",
                  "surfing",
                  "fishing")),
          Map.entry(
              "instrument",
              List.of("guitar", "piano", "drums", "violin", "saxophone", "cello", "bass")),
          Map.entry(
              "genre",
              List.of(
                  "mystery",
                  "science fiction",
                  "fantasy",
                  "historical",
                  "crime",
                  "romance",
                  "horror")),
          Map.entry(
              "language",
              List.of(
                  "Spanish", "Japanese", "German", "Portuguese", "Swahili", "French", "Korean")),
          Map.entry(
              "sport",
              List.of(
                  "football",
                  "basketball",
                  "tennis",
                  "rugby",
                  "cricket",
                  "ice hockey",
                  "volleyball")),
          Map.entry(
              "color",
              List.of("red", "blue", "green", "yellow", "black", "white", "orange", "grey")),
          Map.entry(
              "car",
              List.of(
                  "hatchback",
                  "pickup truck",
                  "station wagon",
                  "electric car",
                  "minivan",
                  "convertible")));
}

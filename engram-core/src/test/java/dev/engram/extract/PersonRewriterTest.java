package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PersonRewriterTest {

  /** An empty name column means the message has no speaker name: the text is kept. */
  @ParameterizedTest(name = "[{index}] {0}: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      Caroline | I adopted a puppy.                           | Caroline adopted a puppy.
      Caroline | I'm keen on counseling.                      | Caroline is keen on counseling.
      Caroline | I'm not sure about the move.                 | Caroline is not sure about the move.
      Caroline | I've been to Paris twice.                    | Caroline has been to Paris twice.
      Caroline | I'd love to visit Sweden.                    | Caroline would love to visit Sweden.
      Caroline | I'd never seen the ocean before that trip.   | Caroline had never seen the ocean before that trip.
      Caroline | I'd finished the painting by then.           | Caroline had finished the painting by then.
      Caroline | I'll keep you posted.                        | Caroline will keep you posted.
      Caroline | I am a counselor.                            | Caroline is a counselor.
      Caroline | I was so happy.                              | Caroline was so happy.
      Caroline | I have two kids.                             | Caroline has two kids.
      Caroline | I go running every morning.                  | Caroline goes running every morning.
      Caroline | I study psychology at night.                 | Caroline studies psychology at night.
      Caroline | I watch movies with the kids.                | Caroline watches movies with the kids.
      Caroline | I play the violin.                           | Caroline plays the violin.
      Caroline | I really love pottery.                       | Caroline really loves pottery.
      User     | I want to make sure I fully grasp the concepts. | User wants to make sure User fully grasps the concepts.
      User     | I initially miscalculated 5P3.               | User initially miscalculated 5P3.
      User     | I apply the formula.                         | User applies the formula.
      User     | I rely on the cache.                         | User relies on the cache.
      User     | I rally the team.                            | User rallies the team.
      User     | I deeply appreciate it.                      | User deeply appreciates it.
      User     | I supply the data.                           | User supplies the data.
      Caroline | I never miss a class.                        | Caroline never misses a class.
      Caroline | I went hiking.                               | Caroline went hiking.
      Caroline | I can swim.                                  | Caroline can swim.
      Caroline | I will call her.                             | Caroline will call her.
      Caroline | I don't eat meat.                            | Caroline doesn't eat meat.
      Caroline | I haven't decided yet.                       | Caroline hasn't decided yet.
      Caroline | I need a break.                              | Caroline needs a break.
      Caroline | I agreed to help.                            | Caroline agreed to help.
      Caroline | I read a lot of books.                       | Caroline read a lot of books.
      Caroline | I wanna start a dance studio.                | Caroline wants to start a dance studio.
      Caroline | i love painting                              | Caroline loves painting
      Caroline | I 100% agree with that.                      | Caroline 100% agrees with that.
      Caroline | My sister and I love hiking.                 | Caroline's sister and Caroline love hiking.
      Caroline | Mel and I go to the gym.                     | Mel and Caroline go to the gym.
      Caroline | I cook and I clean every day.                | Caroline cooks and Caroline cleans every day.
      Caroline | "I feel blessed, and I want to give back." | "Caroline feels blessed, and Caroline wants to give back."
      Caroline | The group made me feel accepted.             | The group made Caroline feel accepted.
      Caroline | I want to embrace myself.                    | Caroline wants to embrace Caroline.
      Caroline | That bike is mine.                           | That bike is Caroline's.
      Caroline | My kids love nature.                         | Caroline's kids love nature.
      Caroline | I'm carving out some me-time.                | Caroline is carving out some me-time.
      User     | I keep it in my_app.py and my.cnf.           | User keeps it in my_app.py and my.cnf.
      User     | My code lives in src/my/ and config.my now.  | User's code lives in src/my/ and config.my now.
      User     | I call `my_helper(me)` from my module.       | User calls `my_helper(me)` from User's module.
      User     | I/O is slow on my laptop.                    | I/O is slow on User's laptop.
      User     | The tests passed for me.                     | The tests passed for User.
      User     | A Type I error worries me.                   | A Type I error worries User.
      User     | In Part I of the course I learned a lot.     | In Part I of the course User learned a lot.
      User     | I study World War I and Louis I.             | User studies World War I and Louis I.
      User     | On Monday I went home.                       | On Monday User went home.
      User     | Mel and I.                                   | Mel and User.
      User     | Tomorrow, I start.                           | "Tomorrow, User starts."
      User     | Do I need to redo the migrations?            | Does User need to redo the migrations?
      User     | So do I update my scripts on Render?         | So does User update User's scripts on Render?
      User     | Am I missing anything?                       | Is User missing anything?
      User     | How can I use the debugger?                  | How can User use the debugger?
      User     | What should I focus on first?                | What should User focus on first?
      User     | Why didn't I get an error?                   | Why didn't User get an error?
      User     | Have I covered everything?                   | Has User covered everything?
      User     | There is a lot to do I think.                | There is a lot to do User thinks.
      User     | If I can, I will.                            | "If User can, User will."
      User     | Whatever you do I support it.                | Whatever you do User supports it.
      User     | How much do I owe them?                      | How much does User owe them?
      User     | I'm using API v2.5 and I want to check it.   | User is using API v2.5 and User wants to check it.
      User     | I use Node.js and I like it.                 | User uses Node.js and User likes it.
      User     | Node.js and I get along.                     | Node.js and User get along.
      Caroline | We went camping last weekend.                | Caroline: we went camping last weekend.
      Caroline | Our family loves the beach.                  | Caroline: our family loves the beach.
      Caroline | The kids asked us to stay.                   | Caroline: The kids asked us to stay.
      Caroline | I went camping with our kids.                | Caroline went camping with our kids.
      Caroline | The US has great national parks.             | The US has great national parks.
      Caroline | Gonna check out career options.              | Caroline is gonna check out career options.
      Caroline | Excited to start the new job!                | Caroline is excited to start the new job!
      Caroline | Been busy with work lately.                  | Caroline has been busy with work lately.
      Caroline | Went to Sweden last summer.                  | Caroline went to Sweden last summer.
      Caroline | Looking for a place has been hard.           | Looking for a place has been hard.
      Caroline | Painting is relaxing.                        | Painting is relaxing.
      Jon      | Lost my job as a banker yesterday.           | Jon lost Jon's job as a banker yesterday.
               | I adopted a puppy.                           | I adopted a puppy.
               | We went camping.                             | We went camping.
      """)
  void rewritesFirstPersonToTheSpeaker(String name, String sentence, String expected) {
    assertThat(PersonRewriter.rewrite(sentence, name)).isEqualTo(expected);
  }
}

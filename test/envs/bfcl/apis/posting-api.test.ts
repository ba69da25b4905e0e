// TwitterAPI against upstream: every expected result string and state repr below was produced by CPython 3.11
// running upstream posting_api.py through execute_multi_turn_func_call on the same calls and scenario.
import { describe, it } from "vitest";
import type { BfclConstants } from "../../../../src/envs/bfcl/apis/backend-class.js";
import { postingApiClass } from "../../../../src/envs/bfcl/apis/posting-api.js";
import { isPyObject, type PyDict } from "../../../../src/envs/bfcl/py/value.js";
import { type Step, dataConstants, entryConfig, expectState, methodSpec, py, runSteps } from "./harness.js";
import { expectMatchesFuncDocs } from "./scenario-player.js";

const run = (scenario: PyDict, longContext: boolean, steps: readonly Step[], constants?: BfclConstants) =>
  runSteps(postingApiClass, scenario, longContext, steps, constants);

describe("TwitterAPI", () => {
  it("has exactly the functions, parameters, required ones and defaults of func_doc/posting_api.json", () => {
    // post_tweet's `[]` defaults are markers standing for Python's shared mutable list (see posting-api.ts).
    const postTweet = methodSpec(postingApiClass, "post_tweet");
    const asDocumented = {
      ...postingApiClass,
      methods: {
        ...postingApiClass.methods,
        post_tweet: {
          ...postTweet,
          params: postTweet.params.map((param) => (isPyObject(param.default) ? { ...param, default: [] } : param)),
        },
      },
    };
    expectMatchesFuncDocs(asDocumented);
  });

  it("needs authentication for posting, retweeting, commenting and following", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["posting_get_login_status", "{}", '{"login_status": false}'],
      ["post_tweet", '{"content": "x"}', '{"error": "User not authenticated. Please authenticate before posting."}'],
      ["retweet", '{"tweet_id": 0}', '{"error": "User not authenticated. Please authenticate before retweeting."}'],
      [
        "comment",
        '{"tweet_id": 0, "comment_content": "c"}',
        '{"error": "User not authenticated. Please authenticate before commenting."}',
      ],
      [
        "follow_user",
        '{"username_to_follow": "z"}',
        '{"error": "User not authenticated. Please authenticate before following."}',
      ],
      [
        "list_all_following",
        "{}",
        '{"error": "User not authenticated. Please authenticate before listing following."}',
      ],
      [
        "unfollow_user",
        '{"username_to_unfollow": "alice"}',
        '{"error": "User not authenticated. Please authenticate before unfollowing."}',
      ],
      ["authenticate_twitter", '{"username": "john", "password": "bad"}', '{"authentication_status": false}'],
      ["authenticate_twitter", '{"username": "john", "password": "john123"}', '{"authentication_status": true}'],
      ["posting_get_login_status", "{}", '{"login_status": true}'],
    ]);
    expectState(instance, [
      ["username", "'john'"],
      ["password", "'john123'"],
      ["authenticated", "True"],
      ["tweets", "{}"],
      ["comments", "{}"],
      ["retweets", "{}"],
      ["following_list", "['alice', 'bob']"],
      ["tweet_counter", "0"],
    ]);
  });

  it("posts with ids from tweet_counter; a default mentions list is shared with later default posts, as Python's mutable default", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["authenticate_twitter", '{"username": "john", "password": "john123"}', '{"authentication_status": true}'],
      [
        "post_tweet",
        '{"content": "first"}',
        '{"id": 0, "username": "john", "content": "first", "tags": [], "mentions": []}',
      ],
      [
        "post_tweet",
        '{"content": "second", "tags": ["#A", "#b"], "mentions": ["@m"]}',
        '{"id": 1, "username": "john", "content": "second", "tags": ["#A", "#b"], "mentions": ["@m"]}',
      ],
      [
        "mention",
        '{"tweet_id": 0, "mentioned_usernames": ["@x", "@y"]}',
        '{"mention_status": "Users mentioned successfully"}',
      ],
      [
        "post_tweet",
        '{"content": "third"}',
        '{"id": 2, "username": "john", "content": "third", "tags": [], "mentions": ["@x", "@y"]}',
      ],
      [
        "get_tweet",
        '{"tweet_id": 2}',
        '{"id": 2, "username": "john", "content": "third", "tags": [], "mentions": ["@x", "@y"]}',
      ],
      ["get_tweet", '{"tweet_id": 99}', '{"error": "Tweet with ID 99 not found."}'],
      [
        "get_tweet",
        '{"tweet_id": 1.0}',
        '{"id": 1, "username": "john", "content": "second", "tags": ["#A", "#b"], "mentions": ["@m"]}',
      ],
      ["mention", '{"tweet_id": 99, "mentioned_usernames": ["@q"]}', '{"error": "Tweet with ID 99 not found."}'],
      [
        "mention",
        '{"tweet_id": 1, "mentioned_usernames": "@ab"}',
        '{"mention_status": "Users mentioned successfully"}',
      ],
      ["mention", '{"tweet_id": 1, "mentioned_usernames": 5}', "Error during execution: 'int' object is not iterable"],
    ]);
    expectState(instance, [
      ["username", "'john'"],
      ["password", "'john123'"],
      ["authenticated", "True"],
      [
        "tweets",
        "{0: {'id': 0, 'username': 'john', 'content': 'first', 'tags': [], 'mentions': ['@x', '@y']}, 1: {'id': 1, 'username': 'john', 'content': 'second', 'tags': ['#A', '#b'], 'mentions': ['@m', '@', 'a', 'b']}, 2: {'id': 2, 'username': 'john', 'content': 'third', 'tags': [], 'mentions': ['@x', '@y']}}",
      ],
      ["comments", "{}"],
      ["retweets", "{}"],
      ["following_list", "['alice', 'bob']"],
      ["tweet_counter", "3"],
    ]);
  });

  it("retweets once per tweet, appends comments, reports stats and searches content and tags", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["authenticate_twitter", '{"username": "john", "password": "john123"}', '{"authentication_status": true}'],
      [
        "post_tweet",
        '{"content": "Hello World", "tags": ["#Greeting"]}',
        '{"id": 0, "username": "john", "content": "Hello World", "tags": ["#Greeting"], "mentions": []}',
      ],
      [
        "post_tweet",
        '{"content": "news", "tags": ["#tech"]}',
        '{"id": 1, "username": "john", "content": "news", "tags": ["#tech"], "mentions": []}',
      ],
      ["retweet", '{"tweet_id": 1}', '{"retweet_status": "Successfully retweeted"}'],
      ["retweet", '{"tweet_id": 1}', '{"retweet_status": "Already retweeted"}'],
      ["retweet", '{"tweet_id": true}', '{"retweet_status": "Already retweeted"}'],
      ["retweet", '{"tweet_id": "1"}', '{"error": "Tweet with ID 1 not found."}'],
      ["retweet", '{"tweet_id": [1]}', "Error during execution: unhashable type: 'list'"],
      ["comment", '{"tweet_id": 1, "comment_content": "nice"}', '{"comment_status": "Comment added successfully"}'],
      ["comment", '{"tweet_id": 1, "comment_content": "again"}', '{"comment_status": "Comment added successfully"}'],
      ["comment", '{"tweet_id": 7, "comment_content": "lost"}', '{"error": "Tweet with ID 7 not found."}'],
      [
        "get_tweet_comments",
        '{"tweet_id": 1}',
        "[{'username': 'john', 'content': 'nice'}, {'username': 'john', 'content': 'again'}]",
      ],
      ["get_tweet_comments", '{"tweet_id": 0}', "[]"],
      ["get_tweet_comments", '{"tweet_id": 50}', '{"error": "Tweet with ID 50 not found."}'],
      [
        "get_user_tweets",
        '{"username": "john"}',
        "[{'id': 0, 'username': 'john', 'content': 'Hello World', 'tags': ['#Greeting'], 'mentions': []}, {'id': 1, 'username': 'john', 'content': 'news', 'tags': ['#tech'], 'mentions': []}]",
      ],
      ["get_user_tweets", '{"username": "zz"}', "[]"],
      [
        "search_tweets",
        '{"keyword": "#TECH"}',
        "[{'id': 1, 'username': 'john', 'content': 'news', 'tags': ['#tech'], 'mentions': []}]",
      ],
      [
        "search_tweets",
        '{"keyword": "WORLD"}',
        "[{'id': 0, 'username': 'john', 'content': 'Hello World', 'tags': ['#Greeting'], 'mentions': []}]",
      ],
      ["search_tweets", '{"keyword": 3}', "Error during execution: 'int' object has no attribute 'lower'"],
      ["get_user_stats", '{"username": "john"}', '{"tweet_count": 2, "following_count": 2, "retweet_count": 1}'],
      ["get_user_stats", '{"username": "other"}', '{"tweet_count": 0, "following_count": 0, "retweet_count": 0}'],
      ["get_user_stats", '{"username": [1]}', "Error during execution: unhashable type: 'list'"],
    ]);
    expectState(instance, [
      ["username", "'john'"],
      ["password", "'john123'"],
      ["authenticated", "True"],
      [
        "tweets",
        "{0: {'id': 0, 'username': 'john', 'content': 'Hello World', 'tags': ['#Greeting'], 'mentions': []}, 1: {'id': 1, 'username': 'john', 'content': 'news', 'tags': ['#tech'], 'mentions': []}}",
      ],
      ["comments", "{1: [{'username': 'john', 'content': 'nice'}, {'username': 'john', 'content': 'again'}]}"],
      ["retweets", "{'john': [1]}"],
      ["following_list", "['alice', 'bob']"],
      ["tweet_counter", "2"],
    ]);
  });

  it("follows and unfollows by list membership", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["authenticate_twitter", '{"username": "john", "password": "john123"}', '{"authentication_status": true}'],
      ["follow_user", '{"username_to_follow": "alice"}', '{"follow_status": false}'],
      ["follow_user", '{"username_to_follow": "carol"}', '{"follow_status": true}'],
      ["list_all_following", "{}", '{"following_list": ["alice", "bob", "carol"]}'],
      ["unfollow_user", '{"username_to_unfollow": "carol"}', '{"unfollow_status": true}'],
      ["unfollow_user", '{"username_to_unfollow": "carol"}', '{"unfollow_status": false}'],
      ["unfollow_user", '{"username_to_unfollow": ["x"]}', '{"unfollow_status": false}'],
      ["list_all_following", "{}", '{"following_list": ["alice", "bob"]}'],
    ]);
    expectState(instance, [
      ["username", "'john'"],
      ["password", "'john123'"],
      ["authenticated", "True"],
      ["tweets", "{}"],
      ["comments", "{}"],
      ["retweets", "{}"],
      ["following_list", "['alice', 'bob']"],
      ["tweet_counter", "0"],
    ]);
  });

  it("keeps the scenario's string comment keys while tweet keys become ints (multi_turn_base_195)", () => {
    const instance = run(
      entryConfig("multi_turn_base_195", "TwitterAPI"),
      false,
      [
        ["posting_get_login_status", "{}", '{"login_status": true}'],
        ["get_tweet_comments", '{"tweet_id": 1}', '{"error": "Tweet with ID 1 not found."}'],
        [
          "post_tweet",
          '{"content": "hi", "tags": ["#t"]}',
          '{"id": 1, "username": "michael_t", "content": "hi", "tags": ["#t"], "mentions": []}',
        ],
        ["comment", '{"tweet_id": 1, "comment_content": "mine"}', '{"comment_status": "Comment added successfully"}'],
        ["get_tweet_comments", '{"tweet_id": 1}', "[{'username': 'michael_t', 'content': 'mine'}]"],
        ["retweet", '{"tweet_id": 1}', '{"retweet_status": "Already retweeted"}'],
        ["get_user_stats", '{"username": "michael_t"}', '{"tweet_count": 1, "following_count": 3, "retweet_count": 1}'],
      ],
      dataConstants(),
    );
    expectState(instance, [
      ["username", "'michael_t'"],
      ["password", "'michaelSecurePass123'"],
      ["authenticated", "True"],
      ["tweets", "{1: {'id': 1, 'username': 'michael_t', 'content': 'hi', 'tags': ['#t'], 'mentions': []}}"],
      [
        "comments",
        "{'1': [{'user': 'jane_d', 'comment': 'Safe travels!'}, {'user': 'alex_k', 'comment': 'Have fun!'}], 1: [{'username': 'michael_t', 'content': 'mine'}]}",
      ],
      ["retweets", "{'michael_t': [1]}"],
      ["following_list", "['jane_d', 'alex_k', 'travel_guru']"],
      ["tweet_counter", "2"],
    ]);
  });
});

// TwitterAPI (upstream posting_api.py): one account posting, retweeting, commenting and following. State:
// username, password, authenticated, tweets (int id -> tweet dict; the scenario's string keys become ints on
// load), comments (tweet id -> list of {username, content}; scenario keys stay strings, as upstream leaves
// them), retweets (username -> list of tweet ids), following_list, tweet_counter.
// post_tweet's defaults `tags=[]` and `mentions=[]` are mutable in Python: a tweet posted without them shares
// the default list, and mention() on it extends that list for every later default post. We reproduce that
// aliasing per instance (the ParamSpec defaults are markers that run() replaces with this instance's own
// lists), where CPython shares one list across the whole process, every entry and instance included.
import { attribute, publicAttributes, type InstanceVars } from "../py/attributes.js";
import { dictLookup, pyLen, pyListRemove, requireDict, requireList, setDictItem } from "../py/container-methods.js";
import { dictHas, pyContains, pyIterate } from "../py/containers.js";
import { pyIntOf } from "../py/convert.js";
import { pyStr } from "../py/format.js";
import { pyBinary } from "../py/operators.js";
import { pyLower } from "../py/str-methods.js";
import { pyGetItem } from "../py/subscript.js";
import { isPyObject, pyDictOf, pyEquals, pyTruthy, type PyDict, type PyObject, type PyValue } from "../py/value.js";
import { defineBfclClass, type BfclConstants, type BfclInstance, type MethodSpec } from "./backend-class.js";
import { argument, errorResult, moduleDefaults, scenarioValue } from "./backend-support.js";

const OWNER = "TwitterAPI";

/**
 * Stand-ins for post_tweet's `[]` defaults. The binder copies defaults per call, but keeps objects by reference,
 * so run() recognises these and swaps in the instance's own lists. They print and compare as an empty list.
 */
function mutableDefault(): PyObject {
  const marker: PyObject = {
    kind: "object",
    pyClass: "list",
    pyAttributes: () => [],
    pyRepr: () => "[]",
    pyEquals: (other) => other === marker || (Array.isArray(other) && other.length === 0),
  };
  return marker;
}
const DEFAULT_TAGS = mutableDefault();
const DEFAULT_MENTIONS = mutableDefault();

export interface TwitterApiInstance extends BfclInstance {
  readonly vars: InstanceVars;
  /** This instance's stand-ins for post_tweet's shared mutable defaults. */
  readonly sharedDefaults: { readonly tags: PyValue[]; readonly mentions: PyValue[] };
}

type Method = MethodSpec<TwitterApiInstance>;

const self = (instance: TwitterApiInstance, name: string): PyValue => attribute(instance.vars, OWNER, name);
const authenticated = (instance: TwitterApiInstance): boolean => pyTruthy(self(instance, "authenticated"));
const tweets = (instance: TwitterApiInstance): PyDict => requireDict(self(instance, "tweets"), "values");
const notFound = (tweetId: PyValue): PyDict => errorResult(`Tweet with ID ${pyStr(tweetId)} not found.`);

const authenticateTwitter: Method = {
  params: [{ name: "username" }, { name: "password" }],
  run(instance, args) {
    if (
      pyEquals(argument(args, "username"), self(instance, "username")) &&
      pyEquals(argument(args, "password"), self(instance, "password"))
    ) {
      instance.vars.set("authenticated", true);
      return pyDictOf({ authentication_status: true });
    }
    return pyDictOf({ authentication_status: false });
  },
};

const postingGetLoginStatus: Method = {
  params: [],
  run: (instance) => pyDictOf({ login_status: pyTruthy(self(instance, "authenticated")) }),
};

const postTweet: Method = {
  params: [
    { name: "content" },
    { name: "tags", default: DEFAULT_TAGS },
    { name: "mentions", default: DEFAULT_MENTIONS },
  ],
  run(instance, args) {
    if (!authenticated(instance)) return errorResult("User not authenticated. Please authenticate before posting.");
    const tags = argument(args, "tags");
    const mentions = argument(args, "mentions");
    const counter = self(instance, "tweet_counter");
    const tweet = pyDictOf({
      id: counter,
      username: self(instance, "username"),
      content: argument(args, "content"),
      tags: isPyObject(tags) && tags === DEFAULT_TAGS ? instance.sharedDefaults.tags : tags,
      mentions: isPyObject(mentions) && mentions === DEFAULT_MENTIONS ? instance.sharedDefaults.mentions : mentions,
    });
    setDictItem(requireDict(self(instance, "tweets"), "__setitem__"), counter, tweet);
    instance.vars.set("tweet_counter", pyBinary("+", counter, 1));
    return tweet;
  },
};

const retweet: Method = {
  params: [{ name: "tweet_id" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!authenticated(instance)) return errorResult("User not authenticated. Please authenticate before retweeting.");
    if (!dictHas(tweets(instance), tweetId)) return notFound(tweetId);
    const retweets = requireDict(self(instance, "retweets"), "__setitem__");
    const username = self(instance, "username");
    if (!dictHas(retweets, username)) setDictItem(retweets, username, []);
    const own = requireList(pyGetItem(retweets, username), "append");
    if (pyContains(own, tweetId)) return pyDictOf({ retweet_status: "Already retweeted" });
    own.push(tweetId);
    return pyDictOf({ retweet_status: "Successfully retweeted" });
  },
};

const comment: Method = {
  params: [{ name: "tweet_id" }, { name: "comment_content" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!authenticated(instance)) return errorResult("User not authenticated. Please authenticate before commenting.");
    if (!dictHas(tweets(instance), tweetId)) return notFound(tweetId);
    const comments = requireDict(self(instance, "comments"), "__setitem__");
    if (!dictHas(comments, tweetId)) setDictItem(comments, tweetId, []);
    const entry = pyDictOf({ username: self(instance, "username"), content: argument(args, "comment_content") });
    requireList(pyGetItem(comments, tweetId), "append").push(entry);
    return pyDictOf({ comment_status: "Comment added successfully" });
  },
};

const mention: Method = {
  params: [{ name: "tweet_id" }, { name: "mentioned_usernames" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!dictHas(tweets(instance), tweetId)) return notFound(tweetId);
    const tweet = pyGetItem(tweets(instance), tweetId);
    const mentions = requireList(pyGetItem(tweet, "mentions"), "extend");
    mentions.push(...pyIterate(argument(args, "mentioned_usernames")));
    return pyDictOf({ mention_status: "Users mentioned successfully" });
  },
};

const followUser: Method = {
  params: [{ name: "username_to_follow" }],
  run(instance, args) {
    const username = argument(args, "username_to_follow");
    if (!authenticated(instance)) return errorResult("User not authenticated. Please authenticate before following.");
    const following = self(instance, "following_list");
    if (pyContains(following, username)) return pyDictOf({ follow_status: false });
    requireList(following, "append").push(username);
    return pyDictOf({ follow_status: true });
  },
};

const listAllFollowing: Method = {
  params: [],
  run(instance) {
    if (!authenticated(instance))
      return errorResult("User not authenticated. Please authenticate before listing following.");
    return pyDictOf({ following_list: self(instance, "following_list") });
  },
};

const unfollowUser: Method = {
  params: [{ name: "username_to_unfollow" }],
  run(instance, args) {
    const username = argument(args, "username_to_unfollow");
    if (!authenticated(instance)) return errorResult("User not authenticated. Please authenticate before unfollowing.");
    const following = self(instance, "following_list");
    if (!pyContains(following, username)) return pyDictOf({ unfollow_status: false });
    pyListRemove(requireList(following, "remove"), username);
    return pyDictOf({ unfollow_status: true });
  },
};

const getTweet: Method = {
  params: [{ name: "tweet_id" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!dictHas(tweets(instance), tweetId)) return notFound(tweetId);
    return pyGetItem(tweets(instance), tweetId);
  },
};

const getUserTweets: Method = {
  params: [{ name: "username" }],
  run(instance, args) {
    const username = argument(args, "username");
    return [...tweets(instance).values()].filter((tweet) => pyEquals(pyGetItem(tweet, "username"), username));
  },
};

function matchesKeyword(tweet: PyValue, keyword: PyValue): boolean {
  const lowered = pyLower(keyword);
  if (pyLower(pyGetItem(tweet, "content")).includes(lowered)) return true;
  const again = pyLower(keyword);
  const tags = pyIterate(pyGetItem(tweet, "tags")).map((tag) => pyLower(tag));
  return tags.includes(again);
}

const searchTweets: Method = {
  params: [{ name: "keyword" }],
  run(instance, args) {
    const keyword = argument(args, "keyword");
    return [...tweets(instance).values()].filter((tweet) => matchesKeyword(tweet, keyword));
  },
};

const getTweetComments: Method = {
  params: [{ name: "tweet_id" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!dictHas(tweets(instance), tweetId)) return notFound(tweetId);
    return dictLookup(requireDict(self(instance, "comments"), "get"), tweetId) ?? [];
  },
};

const getUserStats: Method = {
  params: [{ name: "username" }],
  run(instance, args) {
    const username = argument(args, "username");
    const tweetCount = [...tweets(instance).values()].filter((tweet) =>
      pyEquals(pyGetItem(tweet, "username"), username),
    ).length;
    const followingCount = pyEquals(username, self(instance, "username")) ? pyLen(self(instance, "following_list")) : 0;
    const retweetCount = pyLen(dictLookup(requireDict(self(instance, "retweets"), "get"), username) ?? []);
    return pyDictOf({ tweet_count: tweetCount, following_count: followingCount, retweet_count: retweetCount });
  },
};

function createInstance(constants: BfclConstants): TwitterApiInstance {
  const vars: InstanceVars = new Map();
  return {
    vars,
    sharedDefaults: { tags: [], mentions: [] },
    loadScenario(scenario) {
      const defaults = moduleDefaults(constants, "posting_api");
      const get = (key: string): PyValue => scenarioValue(scenario, key, defaults);
      for (const key of ["username", "password", "authenticated", "tweets"]) vars.set(key, get(key));
      const byIntId: PyDict = new Map();
      for (const [key, value] of requireDict(attribute(vars, OWNER, "tweets"), "items"))
        setDictItem(byIntId, pyIntOf(key), value);
      vars.set("tweets", byIntId);
      for (const key of ["comments", "retweets", "following_list", "tweet_counter"]) vars.set(key, get(key));
    },
    publicState: () => publicAttributes(vars),
  };
}

export const postingApiClass = defineBfclClass<TwitterApiInstance>({
  className: "TwitterAPI",
  moduleName: "posting_api",
  stateless: false,
  create: createInstance,
  methods: {
    authenticate_twitter: authenticateTwitter,
    posting_get_login_status: postingGetLoginStatus,
    post_tweet: postTweet,
    retweet,
    comment,
    mention,
    follow_user: followUser,
    list_all_following: listAllFollowing,
    unfollow_user: unfollowUser,
    get_tweet: getTweet,
    get_user_tweets: getUserTweets,
    search_tweets: searchTweets,
    get_tweet_comments: getTweetComments,
    get_user_stats: getUserStats,
  },
});

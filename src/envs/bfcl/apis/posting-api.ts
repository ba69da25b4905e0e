// TwitterAPI (upstream posting_api.py): one account posting, retweeting, commenting and following. State:
// username, password, authenticated, tweets (int id -> tweet dict; the scenario's string keys become ints on
// load), comments (tweet id -> list of {username, content}; scenario keys stay strings, as upstream leaves
// them), retweets (username -> list of tweet ids), following_list, tweet_counter.
// post_tweet's defaults `tags=[]` and `mentions=[]` are mutable in Python: a tweet posted without them shares
// the default list, and mention() on it extends that list for every later default post. We reproduce that
// aliasing per instance (the executor passes ParamSpec defaults by identity; we swap in this instance's own
// list), where CPython shares it across the whole process.
import { defineBfclClass, type BfclInstance, type MethodSpec } from "../api.js";
import {
  argument, attribute, defaultValue, moduleDefaults, publicAttributes, scenarioValue, type InstanceVars,
} from "../py/attributes.js";
import {
  pyDictGet, pyDictHas, pyDictItem, pyDictSet, pyIn, pyIterate, pyLen, pyListRemove, pySubscript, requireDict, requireList,
} from "../py/containers.js";
import { pyStr } from "../py/format.js";
import { pyInt } from "../py/int-parse.js";
import { pyPlus } from "../py/operators.js";
import { requireStr } from "../py/strings.js";
import { pyDictOf, pyEquals, pyTruthy, type PyDict, type PyValue } from "../py/value.js";

const OWNER = "TwitterAPI";

/** The ParamSpec defaults of post_tweet; recognised by identity and replaced per instance. */
const DEFAULT_TAGS: PyValue[] = [];
const DEFAULT_MENTIONS: PyValue[] = [];

export interface TwitterApiInstance extends BfclInstance {
  readonly vars: InstanceVars;
  /** This instance's stand-ins for post_tweet's shared mutable defaults. */
  readonly sharedDefaults: { readonly tags: PyValue[]; readonly mentions: PyValue[] };
}

type Method = MethodSpec<TwitterApiInstance>;

const error = (text: string): PyDict => pyDictOf({ error: text });
const self = (instance: TwitterApiInstance, name: string): PyValue => attribute(instance.vars, OWNER, name);
const authenticated = (instance: TwitterApiInstance): boolean => pyTruthy(self(instance, "authenticated"));
const tweets = (instance: TwitterApiInstance): PyDict => requireDict(self(instance, "tweets"), "values");
const notFound = (tweetId: PyValue): PyDict => error(`Tweet with ID ${pyStr(tweetId)} not found.`);

const authenticateTwitter: Method = {
  params: [{ name: "username" }, { name: "password" }],
  run(instance, args) {
    if (pyEquals(argument(args, "username"), self(instance, "username")) && pyEquals(argument(args, "password"), self(instance, "password"))) {
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
  params: [{ name: "content" }, { name: "tags", default: DEFAULT_TAGS }, { name: "mentions", default: DEFAULT_MENTIONS }],
  run(instance, args) {
    if (!authenticated(instance)) return error("User not authenticated. Please authenticate before posting.");
    const tags = argument(args, "tags");
    const mentions = argument(args, "mentions");
    const counter = self(instance, "tweet_counter");
    const tweet = pyDictOf({
      id: counter,
      username: self(instance, "username"),
      content: argument(args, "content"),
      tags: tags === DEFAULT_TAGS ? instance.sharedDefaults.tags : tags,
      mentions: mentions === DEFAULT_MENTIONS ? instance.sharedDefaults.mentions : mentions,
    });
    pyDictSet(requireDict(self(instance, "tweets"), "__setitem__"), counter, tweet);
    instance.vars.set("tweet_counter", pyPlus(counter, 1));
    return tweet;
  },
};

const retweet: Method = {
  params: [{ name: "tweet_id" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!authenticated(instance)) return error("User not authenticated. Please authenticate before retweeting.");
    if (!pyDictHas(tweets(instance), tweetId)) return notFound(tweetId);
    const retweets = requireDict(self(instance, "retweets"), "__setitem__");
    const username = self(instance, "username");
    if (!pyDictHas(retweets, username)) pyDictSet(retweets, username, []);
    const own = requireList(pyDictItem(retweets, username), "append");
    if (pyIn(tweetId, own)) return pyDictOf({ retweet_status: "Already retweeted" });
    own.push(tweetId);
    return pyDictOf({ retweet_status: "Successfully retweeted" });
  },
};

const comment: Method = {
  params: [{ name: "tweet_id" }, { name: "comment_content" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!authenticated(instance)) return error("User not authenticated. Please authenticate before commenting.");
    if (!pyDictHas(tweets(instance), tweetId)) return notFound(tweetId);
    const comments = requireDict(self(instance, "comments"), "__setitem__");
    if (!pyDictHas(comments, tweetId)) pyDictSet(comments, tweetId, []);
    const entry = pyDictOf({ username: self(instance, "username"), content: argument(args, "comment_content") });
    requireList(pyDictItem(comments, tweetId), "append").push(entry);
    return pyDictOf({ comment_status: "Comment added successfully" });
  },
};

const mention: Method = {
  params: [{ name: "tweet_id" }, { name: "mentioned_usernames" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!pyDictHas(tweets(instance), tweetId)) return notFound(tweetId);
    const tweet = pyDictItem(tweets(instance), tweetId);
    const mentions = requireList(pySubscript(tweet, "mentions"), "extend");
    mentions.push(...pyIterate(argument(args, "mentioned_usernames")));
    return pyDictOf({ mention_status: "Users mentioned successfully" });
  },
};

const followUser: Method = {
  params: [{ name: "username_to_follow" }],
  run(instance, args) {
    const username = argument(args, "username_to_follow");
    if (!authenticated(instance)) return error("User not authenticated. Please authenticate before following.");
    const following = self(instance, "following_list");
    if (pyIn(username, following)) return pyDictOf({ follow_status: false });
    requireList(following, "append").push(username);
    return pyDictOf({ follow_status: true });
  },
};

const listAllFollowing: Method = {
  params: [],
  run(instance) {
    if (!authenticated(instance)) return error("User not authenticated. Please authenticate before listing following.");
    return pyDictOf({ following_list: self(instance, "following_list") });
  },
};

const unfollowUser: Method = {
  params: [{ name: "username_to_unfollow" }],
  run(instance, args) {
    const username = argument(args, "username_to_unfollow");
    if (!authenticated(instance)) return error("User not authenticated. Please authenticate before unfollowing.");
    const following = self(instance, "following_list");
    if (!pyIn(username, following)) return pyDictOf({ unfollow_status: false });
    pyListRemove(requireList(following, "remove"), username);
    return pyDictOf({ unfollow_status: true });
  },
};

const getTweet: Method = {
  params: [{ name: "tweet_id" }],
  run(instance, args) {
    const tweetId = argument(args, "tweet_id");
    if (!pyDictHas(tweets(instance), tweetId)) return notFound(tweetId);
    return pyDictItem(tweets(instance), tweetId);
  },
};

const getUserTweets: Method = {
  params: [{ name: "username" }],
  run(instance, args) {
    const username = argument(args, "username");
    return [...tweets(instance).values()].filter((tweet) => pyEquals(pySubscript(tweet, "username"), username));
  },
};

function matchesKeyword(tweet: PyValue, keyword: PyValue): boolean {
  const lowered = requireStr(keyword, "lower").toLowerCase();
  if (requireStr(pySubscript(tweet, "content"), "lower").toLowerCase().includes(lowered)) return true;
  const again = requireStr(keyword, "lower").toLowerCase();
  const tags = pyIterate(pySubscript(tweet, "tags")).map((tag) => requireStr(tag, "lower").toLowerCase());
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
    if (!pyDictHas(tweets(instance), tweetId)) return notFound(tweetId);
    return pyDictGet(requireDict(self(instance, "comments"), "get"), tweetId) ?? [];
  },
};

const getUserStats: Method = {
  params: [{ name: "username" }],
  run(instance, args) {
    const username = argument(args, "username");
    const tweetCount = [...tweets(instance).values()].filter((tweet) => pyEquals(pySubscript(tweet, "username"), username)).length;
    const followingCount = pyEquals(username, self(instance, "username")) ? pyLen(self(instance, "following_list")) : 0;
    const retweetCount = pyLen(pyDictGet(requireDict(self(instance, "retweets"), "get"), username) ?? []);
    return pyDictOf({ tweet_count: tweetCount, following_count: followingCount, retweet_count: retweetCount });
  },
};

function createInstance(defaultState: PyDict): TwitterApiInstance {
  const vars: InstanceVars = new Map();
  return {
    vars,
    sharedDefaults: { tags: [], mentions: [] },
    loadScenario(scenario) {
      const defaults = moduleDefaults(defaultState, "posting_api");
      const get = (key: string): PyValue => scenarioValue(scenario, key, defaultValue(defaults, key));
      for (const key of ["username", "password", "authenticated", "tweets"]) vars.set(key, get(key));
      const byIntId: PyDict = new Map();
      for (const [key, value] of requireDict(attribute(vars, OWNER, "tweets"), "items")) pyDictSet(byIntId, pyInt(key), value);
      vars.set("tweets", byIntId);
      for (const key of ["comments", "retweets", "following_list", "tweet_counter"]) vars.set(key, get(key));
    },
    publicState: () => publicAttributes(vars),
  };
}

export const TwitterApiClass = defineBfclClass<TwitterApiInstance>({
  className: "TwitterAPI",
  moduleName: "posting_api",
  stateless: false,
  create: (constants) => createInstance(constants.defaultState),
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

// The context rule replayed over a whole conversation gives the prompt the in-process policy sampled in, turn by
// turn: from the tokens it sampled, and from the replies' text whenever that text gives the tokens back.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { PolicyContext } from "../../../src/core/policy.js";
import { createRng } from "../../../src/core/rng.js";
import { createModel, type TinyModel } from "../../../src/nn/model.js";
import { encodeText, END } from "../../../src/nn/tokenizer.js";
import { contextRule, turnPrompt, type PreviousTurn } from "../../../src/policies/tiny/context.js";
import { conversationPrompt, textReplyTokens } from "../../../src/policies/tiny/conversation.js";
import { createTinyPolicy } from "../../../src/policies/tiny/policy.js";

const config = { vocabSize: 260, contextLength: 128, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 };
const user = (content: string): Message => ({ role: "user", content });

function context(turn: number, episode: object): PolicyContext {
  return {
    seed: 11,
    sample: 0,
    turn,
    rng: createRng(11),
    tools: [],
    taskId: "t",
    episode,
    privileged: {
      oracle: () => {
        throw new Error("no oracle");
      },
      validActions: () => [],
      toMessage: (action) => ({ role: "assistant", content: action }),
    },
  };
}

describe("conversation prompt", () => {
  {
    it("is the prompt the policy sampled each turn in, given the tokens it sampled", async () => {
      const base = await createModel({ config, seed: 3 });
      const prompts: number[][] = [];
      const model: TinyModel = {
        ...base,
        sample: (batch, options) => (prompts.push(...batch.map((p) => [...p])), base.sample(batch, options)),
      };
      const policy = createTinyPolicy({ model, maxNewTokens: 6 });
      const conversation: Message[] = [{ role: "system", content: "rules of the game" }, user("observation 0: ####")];
      const sampled = new Map<Message, readonly number[]>();
      const episode = {};
      for (let turn = 1; turn <= 9; turn++) {
        const act = await policy.act([...conversation], context(turn, episode));
        expect(conversationPrompt(policy.rule, conversation, (reply) => sampled.get(reply)!)).toEqual(prompts.at(-1));
        sampled.set(act.message, act.tokens!);
        conversation.push(act.message, user(`observation ${turn}: ${"#".repeat(turn * 3)}`));
      }
      // Nine turns of about 30 tokens in a 122-token budget: segments restarted on the way.
      expect(prompts.some((p, t) => t > 0 && p.length < prompts[t - 1]!.length)).toBe(true);
      policy.endEpisode(episode);
      base.dispose();
    });
  }

  it("needs only the replies' text when it gives their tokens back (a cut reply included)", () => {
    const rule = contextRule(100, 8);
    const replies = ["Up", "Left then", "Down"].map((text, t) => [...encodeText(text), ...(t === 1 ? [] : [END])]);
    const conversation: Message[] = [{ role: "system", content: "rules" }];
    let previous: PreviousTurn | undefined;
    replies.forEach((reply, t) => {
      conversation.push(user(`observation ${String(t).padStart(12, "0")}`));
      const prompt = turnPrompt(rule, conversation, previous);
      expect(conversationPrompt(rule, conversation)).toEqual(prompt);
      conversation.push({
        role: "assistant",
        content: new TextDecoder().decode(Uint8Array.from(reply.filter((token) => token < 256))),
      });
      previous = { prompt, reply, messages: conversation.length };
    });
    expect(textReplyTokens({ role: "assistant", content: "Up" })).toEqual([...encodeText("Up"), END]);
  });

  it("differs from the sampled prompt when a reply's bytes were not valid UTF-8 and only its text is known", () => {
    const rule = contextRule(100, 8);
    const reply = [0xff, 0x41, END];
    const conversation: Message[] = [user("observation"), { role: "assistant", content: "\uFFFDA" }, user("next")];
    const exact = conversationPrompt(rule, conversation, () => reply);
    const fromText = conversationPrompt(rule, conversation);
    expect(exact).not.toEqual(fromText);
    expect(exact).toEqual(
      turnPrompt(rule, conversation, { prompt: turnPrompt(rule, conversation.slice(0, 1)), reply, messages: 2 }),
    );
  });
});

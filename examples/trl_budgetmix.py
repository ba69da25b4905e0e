#!/usr/bin/env python3
"""BudgetMix with TRL: GRPO on a budgetrl env served by `budgetrl env-server`, a turn budget drawn per group.

Each GRPO group (the num_generations completions of one prompt) plays one task of the server under one budget drawn
for the group from BUDGETS (BudgetMix), announced to the agent by budgetrl's own wording; the episode is played turn
by turn over OpenEnv's client (GenericEnvClient: a WebSocket session per episode), the model answering each
observation, and its reward is the env's (success; with `--reward process` on the server, plus the change of the
budget-aware oracle's success probability). The env's tokens between the model's turns are masked out of the loss
(env_mask). Every episode is stored by the server (--db) under the run "trl", so `budgetrl show`, `export` and
`report` read the trainer's rollouts.

    budgetrl env-server --env vault --port 8001 --db trl-rollouts.db --reward process
    trl vllm-serve --model Qwen/Qwen3-1.7B &      # or GRPOConfig(use_vllm=True, vllm_mode="colocate")
    python examples/trl_budgetmix.py --env-url http://127.0.0.1:8001 --model Qwen/Qwen3-1.7B

Checkpoints come back to budgetrl through vLLM: `vllm serve OUTPUT_DIR/checkpoint-N --port 8000`, then
`budgetrl eval --env vault --policy openai:OUTPUT_DIR/checkpoint-N --base-url http://127.0.0.1:8000/v1 --budget
1.25x,1.5x,2x,3x` (docs/openenv.md). Not run in budgetrl's CI (it needs a GPU, TRL and vLLM); CI checks that it
compiles (python3 -m py_compile).
"""

import argparse
import asyncio
import random

from datasets import Dataset
from openenv.core.generic_client import GenericEnvClient
from trl import GRPOConfig, GRPOTrainer
from trl.experimental.openenv import generate_rollout_completions

BUDGETS = ["1.25x", "1.5x", "2x", "3x"]  # multiples of each task's optimal length, as budgetrl's study uses
BUDGET_MODE = "announced"
MAX_TURNS = 40  # a guard: the server's budget ends every episode first


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env-url", default="http://127.0.0.1:8001")
    parser.add_argument("--model", default="Qwen/Qwen3-1.7B")
    parser.add_argument("--tasks", type=int, default=256, help="tasks of the server to train on (0..tasks-1)")
    parser.add_argument("--num-generations", type=int, default=8, help="the GRPO group size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output-dir", default="trl-budgetmix")
    return parser.parse_args()


def group_budget(seed, step, group):
    """The budget of one group: drawn uniformly from BUDGETS, reproducible from (seed, step, group)."""
    return random.Random(f"{seed}/{step}/{group}").choice(BUDGETS)


def chat_prompt(tokenizer, messages):
    return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)


async def play_group(trainer, tokenizer, url, task, budget, size, episode_prefix):
    """One group: `size` episodes of `task` under `budget`, played turn by turn; their tokens, masks and rewards."""
    clients = [GenericEnvClient(base_url=url) for _ in range(size)]
    for client in clients:
        await client.connect()
    try:
        results = [
            await client.reset(task=task, seed=1000 * task + i, budget=budget, budget_mode=BUDGET_MODE,
                               episode_id=f"{episode_prefix}-{i}")
            for i, client in enumerate(clients)
        ]
        conversations = [[{"role": m["role"], "content": m["content"]} for m in r.observation["messages"]] for r in results]
        first_prompts = [chat_prompt(tokenizer, c) for c in conversations]
        prompt_ids = [tokenizer(p, add_special_tokens=False)["input_ids"] for p in first_prompts]
        completion_ids = [[] for _ in clients]
        logprobs = [[] for _ in clients]
        env_mask = [[] for _ in clients]
        rewards = [0.0 for _ in clients]
        for _ in range(MAX_TURNS):
            live = [i for i, r in enumerate(results) if not r.done]
            if not live:
                break
            outputs = generate_rollout_completions(trainer, [chat_prompt(tokenizer, conversations[i]) for i in live])
            for i, output in zip(live, outputs):
                completion_ids[i] += output["completion_ids"]
                logprobs[i] += output["logprobs"]
                env_mask[i] += [1] * len(output["completion_ids"])
                reply = tokenizer.decode(output["completion_ids"], skip_special_tokens=True)
                conversations[i].append({"role": "assistant", "content": reply})
                results[i] = await clients[i].step({"message": reply})
                rewards[i] += float(results[i].reward or 0.0)
                if not results[i].done:
                    said = "\n\n".join(m["content"] for m in results[i].observation["messages"])
                    conversations[i].append({"role": "user", "content": said})
                    env_ids = tokenizer(said, add_special_tokens=False)["input_ids"]
                    completion_ids[i] += env_ids
                    logprobs[i] += [0.0] * len(env_ids)
                    env_mask[i] += [0] * len(env_ids)
        return prompt_ids, completion_ids, logprobs, env_mask, rewards
    finally:
        for client in clients:
            await client.close()


def make_rollout_func(url, seed, size):
    step = {"n": 0}

    def rollout_func(prompts, trainer):
        """GRPO's rollouts: the prompts come num_generations at a time (one group per task), each group under a
        budget of its own (BudgetMix)."""
        tokenizer = trainer.processing_class
        out = {"prompt_ids": [], "completion_ids": [], "logprobs": [], "env_mask": [], "env_reward": []}
        for group, start in enumerate(range(0, len(prompts), size)):
            task = int(prompts[start])  # the dataset's prompt is the task index
            budget = group_budget(seed, step["n"], group)
            prefix = f"trl/step{step['n']}-g{group}"
            played = asyncio.run(play_group(trainer, tokenizer, url, task, budget, size, prefix))
            for key, values in zip(["prompt_ids", "completion_ids", "logprobs", "env_mask", "env_reward"], played):
                out[key] += values
        step["n"] += 1
        return out

    return rollout_func


def env_reward(completions, env_reward, **kwargs):
    """The reward is the env's (the server's --reward says which), forwarded by the rollout function."""
    return [float(reward) for reward in env_reward]


def main():
    args = parse_args()
    dataset = Dataset.from_dict({"prompt": [str(task) for task in range(args.tasks)]})
    config = GRPOConfig(
        output_dir=args.output_dir,
        num_generations=args.num_generations,
        per_device_train_batch_size=args.num_generations,
        use_vllm=True,
        vllm_mode="server",
        max_completion_length=1024,
        logging_steps=1,
        save_steps=50,
        seed=args.seed,
    )
    trainer = GRPOTrainer(
        model=args.model,
        reward_funcs=env_reward,
        train_dataset=dataset,
        args=config,
        rollout_func=make_rollout_func(args.env_url, args.seed, args.num_generations),
    )
    trainer.train()


if __name__ == "__main__":
    main()

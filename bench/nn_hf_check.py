# Outside reference for bench/nn-hf-check.ts: reads a budgetrl checkpoint directory the way Hugging Face
# transformers would (config.json + model.safetensors with Llama tensor names) and computes per-token
# log-probs with the LlamaForCausalLM equations in PyTorch (LlamaRMSNorm, rotate_half RoPE, SiLU MLP).
# Usage: /usr/bin/python3 bench/nn_hf_check.py CHECKPOINT_DIR TOKENS_JSON  -> prints a JSON list of log-probs
import json, math, struct, sys
import torch

def load_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8 : 8 + n])
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        buf = bytearray(data[8 + n + begin : 8 + n + end])
        out[name] = torch.frombuffer(buf, dtype=torch.float32).reshape(info["shape"])
    return out

directory, tokens = sys.argv[1], json.loads(sys.argv[2])
cfg = json.load(open(f"{directory}/config.json"))
w = load_safetensors(f"{directory}/model.safetensors")
C, H, L, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_hidden_layers"], cfg["rms_norm_eps"]
hd = C // H

def rms(x, weight):
    var = x.pow(2).mean(-1, keepdim=True)
    return weight * (x * torch.rsqrt(var + eps))

def rotate_half(x):
    return torch.cat((-x[..., hd // 2 :], x[..., : hd // 2]), dim=-1)

T = len(tokens)
inv_freq = 1.0 / (cfg["rope_theta"] ** (torch.arange(0, hd, 2, dtype=torch.int64).float() / hd))
freqs = torch.outer(torch.arange(T).float(), inv_freq)
emb = torch.cat((freqs, freqs), dim=-1)
cos, sin = emb.cos(), emb.sin()
with torch.no_grad():
    x = w["model.embed_tokens.weight"][torch.tensor(tokens)]
    mask = torch.full((T, T), float("-inf")).triu(1)
    for l in range(L):
        p = f"model.layers.{l}"
        h = rms(x, w[f"{p}.input_layernorm.weight"])
        q = (h @ w[f"{p}.self_attn.q_proj.weight"].T).view(T, H, hd).transpose(0, 1)
        k = (h @ w[f"{p}.self_attn.k_proj.weight"].T).view(T, H, hd).transpose(0, 1)
        v = (h @ w[f"{p}.self_attn.v_proj.weight"].T).view(T, H, hd).transpose(0, 1)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        a = ((q @ k.transpose(-1, -2)) / math.sqrt(hd) + mask).softmax(-1) @ v
        x = x + a.transpose(0, 1).reshape(T, C) @ w[f"{p}.self_attn.o_proj.weight"].T
        h = rms(x, w[f"{p}.post_attention_layernorm.weight"])
        gate = h @ w[f"{p}.mlp.gate_proj.weight"].T
        up = h @ w[f"{p}.mlp.up_proj.weight"].T
        x = x + (torch.nn.functional.silu(gate) * up) @ w[f"{p}.mlp.down_proj.weight"].T
    head = w["model.embed_tokens.weight"] if cfg["tie_word_embeddings"] else w["lm_head.weight"]
    logp = (rms(x, w["model.norm.weight"]) @ head.T).log_softmax(-1)
    print(json.dumps([logp[t, tokens[t + 1]].item() for t in range(T - 1)]))

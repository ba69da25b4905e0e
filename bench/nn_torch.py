# The PyTorch side of bench/nn.ts: the same Llama-style model, batch and sampling workload, in PyTorch eager
# (Debian's python3-torch with OpenBLAS, 2 threads). Prints one JSON line:
#   {"train_tokens_per_s": ..., "sample_tokens_per_s": ..., "decode_tokens_per_s": ..., "threads": 2, "torch": "..."}
# sample = new tokens / (prefill + decoding); decode = tokens after the first / (time minus a 1-token run).
# Run: /usr/bin/python3 bench/nn_torch.py [--repeats N] (bench/nn.ts runs it for you).
import json, math, sys, time
import torch
import torch.nn.functional as F

torch.set_num_threads(2)
torch.manual_seed(0)
V, T, L, C, H, HID = 260, 256, 4, 128, 4, 344
B, PROMPT, NEW = 16, 200, 32
HD = C // H
REPEATS = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 3

def rope_tables(n):
    inv = 1.0 / (10000.0 ** (torch.arange(0, HD, 2).float() / HD))
    ang = torch.outer(torch.arange(n).float(), inv)
    ang = torch.cat([ang, ang], dim=-1)
    return ang.cos(), ang.sin()

COS, SIN = rope_tables(T)

def rotate(x, cos, sin):
    a, b = x[..., : HD // 2], x[..., HD // 2 :]
    return x * cos + torch.cat([-b, a], dim=-1) * sin

class RMSNorm(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(C))
    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * self.weight

class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.n1, self.n2 = RMSNorm(), RMSNorm()
        self.q, self.k, self.v, self.o = (torch.nn.Linear(C, C, bias=False) for _ in range(4))
        self.gate, self.up = torch.nn.Linear(C, HID, bias=False), torch.nn.Linear(C, HID, bias=False)
        self.down = torch.nn.Linear(HID, C, bias=False)
    def forward(self, x, pos, cache=None):
        b, t, _ = x.shape
        h = self.n1(x)
        q = self.q(h).view(b, t, H, HD).transpose(1, 2)
        k = self.k(h).view(b, t, H, HD).transpose(1, 2)
        v = self.v(h).view(b, t, H, HD).transpose(1, 2)
        cos, sin = COS[pos : pos + t], SIN[pos : pos + t]
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        if cache is not None:
            if "k" in cache:
                k = torch.cat([cache["k"], k], dim=2)
                v = torch.cat([cache["v"], v], dim=2)
            cache["k"], cache["v"] = k, v
        s = (q @ k.transpose(-1, -2)) / math.sqrt(HD)
        if t > 1:
            s = s + torch.full((t, k.shape[2]), float("-inf")).triu(k.shape[2] - t + 1)
        a = (s.softmax(-1) @ v).transpose(1, 2).reshape(b, t, C)
        x = x + self.o(a)
        h = self.n2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(V, C)
        self.blocks = torch.nn.ModuleList(Block() for _ in range(L))
        self.norm = RMSNorm()
        self.head = torch.nn.Linear(C, V, bias=False)
    def forward(self, idx, pos=0, caches=None):
        x = self.embed(idx)
        for i, blk in enumerate(self.blocks):
            x = blk(x, pos, None if caches is None else caches[i])
        return self.head(self.norm(x))

def train_rate(model):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)
    x = torch.randint(0, V, (B, T))
    y = torch.randint(0, V, (B, T))
    def step():
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, V), y.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    step()
    best = 0.0
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        for _ in range(3):
            step()
        best = max(best, 3 * B * T / (time.perf_counter() - t0))
    return best

@torch.no_grad()
def sample_rate(model):
    prompt = torch.randint(0, V, (B, PROMPT))
    def generate(new=NEW):
        caches = [{} for _ in range(L)]
        logits = model(prompt, 0, caches)[:, -1]
        for i in range(new):
            probs = (logits / 0.8).softmax(-1)
            tok = torch.multinomial(probs, 1)
            if i + 1 < new:
                logits = model(tok, PROMPT + i, caches)[:, -1]
    generate()
    best, prefill = float("inf"), float("inf")
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        generate()
        best = min(best, time.perf_counter() - t0)
        t0 = time.perf_counter()
        generate(1)
        prefill = min(prefill, time.perf_counter() - t0)
    return B * NEW / best, B * (NEW - 1) / max(best - prefill, 1e-9)

model = Model()
sample, decode = sample_rate(model)
print(json.dumps({"train_tokens_per_s": train_rate(model), "sample_tokens_per_s": sample, "decode_tokens_per_s": decode,
                  "threads": torch.get_num_threads(), "torch": torch.__version__}))

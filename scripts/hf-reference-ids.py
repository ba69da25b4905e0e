# Reference token ids for the hf renderer's test fixture, from Hugging Face's own `tokenizers` (Rust, Python
# bindings), so that the test compares @huggingface/tokenizers (JavaScript) with an independent implementation:
#   python3 scripts/hf-reference-ids.py test/policies/renderers/fixtures/hf-tiny > test/policies/renderers/fixtures/hf-tiny/reference-ids.json
# (pip install tokenizers; the committed file was made with tokenizers 0.23.2.)
import json
import sys

import tokenizers
from tokenizers import Tokenizer

TEXTS = [
    "hello world",
    "Up",
    "<answer>Left</answer>",
    "caf\u00e9 \u65e5\u672c \U0001F600",
    "  two  spaces\n\nnewlines\t tab",
    "<|im_start|>user\nTurn 3 of 8: 6 turns left.<|im_end|>\n<|im_start|>assistant\n",
    "a" * 50,
    "\u00ff\u0100\u0000x",
]

tok = Tokenizer.from_file(f"{sys.argv[1]}/tokenizer.json")
cases = []
for text in TEXTS:
    ids = tok.encode(text, add_special_tokens=False).ids
    cases.append({"text": text, "ids": ids, "decoded": tok.decode(ids, skip_special_tokens=False)})
print(json.dumps({"tokenizers": tokenizers.__version__, "cases": cases}, ensure_ascii=False, indent=1))

# A reference for the hf renderer, independent of its JavaScript libraries: a conversation through a model's chat
# template with Python's jinja2 set up as transformers' apply_chat_template sets it up (trim_blocks, lstrip_blocks,
# loopcontrols, its tojson, raise_exception and strftime_now; the special tokens of tokenizer_config and the
# caller's template options as variables), then the text through a byte-level BPE written here from the
# tokenizer.json format (added tokens split out first, NFC, the Split regex or GPT-2's, bytes to characters,
# merges by rank), encoded without adding special tokens. The test test/policies/renderers/hf-renderer-qwen3.test.ts runs it:
#   /usr/bin/python3 scripts/hf-chat-reference.py DIR < request.json
# with request.json {"renders": [{"messages", "tools", "add_generation_prompt", "options"}], "texts": [...]}; it
# prints {"renders": [{"text", "ids"}], "texts": [{"ids"}]}. Needs jinja2 and regex (Debian: python3-jinja2,
# python3-regex); nothing else, nothing downloads.
import json
import os
import sys
import unicodedata
from datetime import datetime

import jinja2
import jinja2.ext
import regex
from jinja2.sandbox import ImmutableSandboxedEnvironment

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
SPECIAL_TOKEN_FIELDS = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"]


def byte_characters():
    """GPT-2's table from bytes to printable characters (bytes_to_unicode)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("\u00a1"), ord("\u00ac") + 1)) + list(range(ord("\u00ae"), ord("\u00ff") + 1))
    table = {}
    extra = 0
    for byte in range(256):
        if byte in printable:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(256 + extra)
            extra += 1
    return table


class ByteLevelBpe:
    def __init__(self, spec):
        model = spec["model"]
        if model["type"] != "BPE" or model.get("dropout") not in (None, 0):
            raise SystemExit("only BPE models without dropout")
        self.vocab = model["vocab"]
        merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in model["merges"]]
        self.ranks = {pair: rank for rank, pair in enumerate(merges)}
        self.ignore_merges = bool(model.get("ignore_merges", False))
        self.added = sorted(spec.get("added_tokens", []), key=lambda token: -len(token["content"]))
        for token in self.added:
            if token["lstrip"] or token["rstrip"] or token["single_word"]:
                raise SystemExit("added tokens with lstrip, rstrip or single_word are not implemented")
        normalizer = spec.get("normalizer")
        if normalizer not in (None, {"type": "NFC"}):
            raise SystemExit(f"normalizer {normalizer} is not implemented")
        self.nfc = normalizer is not None
        self.patterns = self.split_patterns(spec["pre_tokenizer"])
        self.bytes = byte_characters()

    @staticmethod
    def split_patterns(pre):
        steps = pre["pretokenizers"] if pre["type"] == "Sequence" else [pre]
        patterns = []
        for step in steps:
            if step["type"] == "Split":
                if step["behavior"] != "Isolated" or step.get("invert"):
                    raise SystemExit("only Isolated, non-inverted splits")
                patterns.append(step["pattern"]["Regex"])
            elif step["type"] == "ByteLevel":
                if step.get("add_prefix_space"):
                    raise SystemExit("add_prefix_space is not implemented")
                if step.get("use_regex", True):
                    patterns.append(GPT2_PATTERN)
            else:
                raise SystemExit(f"pre-tokenizer {step['type']} is not implemented")
        return [regex.compile(pattern) for pattern in patterns]

    def pieces(self, text):
        """Isolated splits: every match is a piece, and so is the text between matches."""
        out = [text]
        for pattern in self.patterns:
            split = []
            for piece in out:
                at = 0
                for match in pattern.finditer(piece):
                    if match.start() > at:
                        split.append(piece[at:match.start()])
                    if match.end() > match.start():
                        split.append(match.group())
                    at = match.end()
                if at < len(piece):
                    split.append(piece[at:])
            out = split
        return out

    def word(self, piece):
        symbols = [self.bytes[b] for b in piece.encode("utf-8")]
        if self.ignore_merges and "".join(symbols) in self.vocab:
            return [self.vocab["".join(symbols)]]
        while len(symbols) > 1:
            best = None
            for i in range(len(symbols) - 1):
                rank = self.ranks.get((symbols[i], symbols[i + 1]))
                if rank is not None and (best is None or rank < best[0]):
                    best = (rank, i)
            if best is None:
                break
            i = best[1]
            symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        return [self.vocab[symbol] for symbol in symbols]

    def encode(self, text):
        ids = []
        at = 0
        plain = ""
        while at < len(text):
            token = next((t for t in self.added if text.startswith(t["content"], at)), None)
            if token is None:
                plain += text[at]
                at += 1
                continue
            ids += self.encode_plain(plain)
            plain = ""
            ids.append(token["id"])
            at += len(token["content"])
        return ids + self.encode_plain(plain)

    def encode_plain(self, text):
        if text == "":
            return []
        if self.nfc:
            text = unicodedata.normalize("NFC", text)
        return [i for piece in self.pieces(text) for i in self.word(piece)]


def chat_template(folder, config):
    path = os.path.join(folder, "chat_template.jinja")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as file:
            return file.read()
    template = config["chat_template"]
    if isinstance(template, list):
        return next(entry["template"] for entry in template if entry["name"] == "default")
    return template


def transformers_environment():
    """The jinja2 environment of transformers' chat templates (utils/chat_template_utils.py)."""

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return datetime.now().strftime(format)

    environment = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    environment.filters["tojson"] = tojson
    environment.globals["raise_exception"] = raise_exception
    environment.globals["strftime_now"] = strftime_now
    return environment


def special_tokens(config):
    out = {}
    for field in SPECIAL_TOKEN_FIELDS:
        value = config.get(field)
        if isinstance(value, dict):
            value = value.get("content")
        if isinstance(value, str):
            out[field] = value
    return out


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "tokenizer_config.json"), encoding="utf-8") as file:
        config = json.load(file)
    with open(os.path.join(folder, "tokenizer.json"), encoding="utf-8") as file:
        bpe = ByteLevelBpe(json.load(file))
    template = transformers_environment().from_string(chat_template(folder, config))
    request = json.load(sys.stdin)
    renders = []
    for render in request.get("renders", []):
        variables = {**special_tokens(config), **render.get("options", {})}
        text = template.render(messages=render["messages"], tools=render.get("tools"), documents=None, add_generation_prompt=render.get("add_generation_prompt", True), **variables)
        renders.append({"text": text, "ids": bpe.encode(text)})
    texts = [{"ids": bpe.encode(text)} for text in request.get("texts", [])]
    json.dump({"jinja2": jinja2.__version__, "renders": renders, "texts": texts}, sys.stdout, ensure_ascii=False)


main()

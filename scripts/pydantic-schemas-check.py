"""Replies of `budgetrl serve` under pydantic's JSON Schemas, read back by pydantic itself.

Run by hand (pydantic and email-validator are not test dependencies): start a server, then
    python3 scripts/pydantic-schemas-check.py http://127.0.0.1:8000/v1 MODEL [RUNS]
For each model below it asks RUNS replies (seeds 1..RUNS) under response_format json_schema with the model's
model_json_schema(), and validates each reply with model_validate_json. It prints one line per model and exits 1 when
a reply was refused (a 400) or did not validate.
"""

import json
import sys
import urllib.request
from datetime import date, datetime, time
from decimal import Decimal
from typing import Literal, Optional
from uuid import UUID

from pydantic import AnyUrl, BaseModel, EmailStr, Field, IPvAnyAddress, conint, conlist, constr


class Node(BaseModel):
    label: constr(max_length=6)
    children: conlist("Node", max_length=2)


class Profile(BaseModel):
    email: EmailStr
    id: UUID
    at: datetime
    day: date
    alarm: time
    site: AnyUrl
    code: constr(pattern=r"^[A-Z]{3}-\d{2}$")
    score: float = Field(ge=0, le=1)
    stars: conint(ge=1, le=5)
    weight: float = Field(gt=0)
    step: conint(multiple_of=5, ge=0, le=100)
    kind: Literal["a", "b"]
    note: Optional[str] = None


class Shapes(BaseModel):
    pair: tuple[str, int]
    tags: conlist(str, min_length=1, max_length=3)
    counts: dict[str, int] = Field(min_length=1, max_length=3)
    address: IPvAnyAddress
    price: Decimal
    tree: Node


def ask(base: str, model: str, schema: dict, seed: int) -> tuple[int, str]:
    body = {
        "model": model,
        "messages": [{"role": "user", "content": "a value"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}},
        "max_tokens": 1200,
        "seed": seed,
    }
    request = urllib.request.Request(
        f"{base}/chat/completions", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return 200, json.loads(answer.read())["choices"][0]["message"]["content"]
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def main() -> int:
    base, model = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    failed = False
    for cls in (Profile, Shapes):
        schema = cls.model_json_schema()
        valid = 0
        for seed in range(1, runs + 1):
            status, text = ask(base, model, schema, seed)
            if status != 200:
                print(f"{cls.__name__}: HTTP {status}: {text[:300]}")
                failed = True
                break
            try:
                cls.model_validate_json(text)
                valid += 1
            except Exception as error:  # a reply pydantic refuses
                print(f"{cls.__name__} seed {seed}: {text[:300]}\n  {str(error)[:400]}")
                failed = True
        print(f"{cls.__name__}: {valid}/{runs} replies valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

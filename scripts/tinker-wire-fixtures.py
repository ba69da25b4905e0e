#!/usr/bin/env python3
"""Writes test/tinker/fixtures/sdk-wire/fixtures.json: Tinker wire bodies produced by the Tinker SDK's own code,
for test/tinker/proto.test.ts and operations.test.ts to decode with budgetrl's client and encode again, byte for byte (protobuf) or
JSON-canonically (JSON). An SDK protocol change regenerated here shows up as a failing test.

What produces what (nothing here is budgetrl's code):
  forward_backward requests  the SDK's request path: tinker.types (Datum, ModelInput, TensorData, ...) ->
                             tinker.proto.request_conv.forward_backward_request_to_proto -> forward_only set as
                             resources/training.py sets it -> SerializeToString(), the bytes the SDK POSTs
  results (protobuf)         the SDK has no encoder for results (the service writes them): each is built with the
                             SDK's generated messages (tinker.proto.tinker_public_pb2, its descriptors) the way the
                             service lays them out (one ArrayRecord, int64 byte offsets), serialised by protobuf, and
                             decoded by the SDK's own reader (tinker.proto.response_conv): its decoding is the
                             expected value
  JSON requests              the SDK's request types (tinker.types.*Request, made with construct(): their fields and
                             defaults, the values as given) dumped as the SDK's resources dump every body:
                             _compat.model_dump(request, exclude_unset=False, exclude_none=True, mode="json")

Debian bookworm has pydantic 1.10 and typing_extensions 4.4, older than some names the SDK's modules import (the SDK
declares pydantic>=1.9 but its types import pydantic 2's decorators): shim_environment() stubs those names before the
SDK loads (field_validator, field_serializer and model_validator as decorators that change nothing; ConfigDict as a
value pydantic 1 does not take for a field (set in the SDK's _compat, which leaves it None on pydantic 1), so
model_config stays out of the dumps; TypeIs as
TypeGuard; TypeAliasType as a class nothing is an instance of; typing's own names, such as List, read from typing where typing_extensions 4.4 does not re-export them). None of them is on a path the fixtures take: requests are made with construct(), which runs no
validator, and model_dump on pydantic 1 is .dict() with the same exclusions.

Usage (Debian bookworm; only Debian packages are reachable, no PyPI):
  apt-get install python3-protobuf python3-numpy python3-pydantic python3-httpx python3-anyio \
      python3-typing-extensions python3-sniffio python3-distro
  git -C SDK_CLONE archive d595dc2ba62a src/tinker | tar -x -C /tmp/tinker-sdk
  /usr/bin/python3 scripts/tinker-wire-fixtures.py --sdk /tmp/tinker-sdk/src --commit d595dc2ba62a
The SDK package's __init__ (the HTTP clients, telemetry, transformers) is not run: a bare package object stands in
for `tinker`, and its submodules load from --sdk as they are.
"""

import argparse
import base64
import json
import math
import os
import sys
import types as pytypes


def shim_environment():
    import typing
    import typing_extensions
    if not hasattr(typing_extensions, "TypeIs"):
        typing_extensions.TypeIs = typing_extensions.TypeGuard
    if not hasattr(typing_extensions, "TypeAliasType"):
        # Python 3.11 has no type aliases of that kind: a class nothing is an instance of.
        typing_extensions.TypeAliasType = type("TypeAliasType", (), {})
    # typing_extensions 4.4 does not re-export typing's own names (List, Dict, ...): read them from typing.
    typing_extensions.__getattr__ = lambda name: getattr(typing, name)
    import pydantic
    if not pydantic.VERSION.startswith("2."):
        def unchanged(*_args, **_kwargs):
            return lambda function: function
        for name in ("field_validator", "field_serializer", "model_validator"):
            if not hasattr(pydantic, name):
                setattr(pydantic, name, unchanged)



def load_sdk(src):
    shim_environment()
    package = pytypes.ModuleType("tinker")
    package.__path__ = [os.path.join(src, "tinker")]
    sys.modules["tinker"] = package
    from tinker import _compat  # noqa: E402
    if _compat.ConfigDict is None:
        # On pydantic 1 the SDK's _compat sets ConfigDict to None, which its models call in their class bodies:
        # model_config = ConfigDict(...) becomes a staticmethod, which pydantic 1 leaves out of the fields.
        _compat.ConfigDict = lambda **settings: staticmethod(lambda: settings)
    from tinker import types  # noqa: E402
    from tinker._compat import model_dump  # noqa: E402
    from tinker.proto import request_conv, response_conv  # noqa: E402
    from tinker.proto import tinker_public_pb2 as pb  # noqa: E402

    return types, model_dump, request_conv, response_conv, pb


def b64(data):
    return base64.b64encode(data).decode("ascii")


def finite(values):
    """JSON has no NaN: a value the service computed none for is null."""
    return [None if isinstance(v, float) and math.isnan(v) else v for v in values]


def tensor_json(tensor):
    return {"data": [float(v) if tensor.dtype == "float32" else int(v) for v in tensor.data], "dtype": tensor.dtype,
            "shape": list(tensor.shape) if tensor.shape is not None else None}


def datum_json(datum):
    return {
        "model_input": {"chunks": [{"type": "encoded_text", "tokens": list(c.tokens)} for c in datum.model_input.chunks]},
        "loss_fn_inputs": {name: tensor_json(t) for name, t in datum.loss_fn_inputs.items()},
    }


def text(types, tokens):
    """ModelInput.from_ints(tokens), made without validation (construct)."""
    return types.ModelInput.construct(chunks=[types.EncodedTextChunk.construct(tokens=list(tokens))])


def forward_backward_cases(types, request_conv):
    def datum(tokens, targets, **floats):
        inputs = {"target_tokens": types.TensorData(data=targets, dtype="int64", shape=[len(targets)])}
        for name, values in floats.items():
            inputs[name] = types.TensorData(data=values, dtype="float32", shape=[len(values)])
        return types.Datum(model_input=text(types, tokens), loss_fn_inputs=inputs)

    cases = [
        ("cross_entropy", "model_1", 3, False, None,
         [datum([1, 300, 70000], [300, 70000, 2], weights=[0.0, 0.5, -1.25]),
          datum([5, 6], [6, 7], weights=[0.001, 1.0])]),
        ("cross_entropy forward_only", "model_1", 4, True, None,
         [datum([9, 8, 7, 6], [8, 7, 6, 5], weights=[0.0, 0.0, 0.0, 0.0])]),
        ("ppo", "model_7", 12, False, {"clip_low_threshold": 0.8, "clip_high_threshold": 1.28},
         [datum([4, 5, 6], [5, 6, 7], logprobs=[0.0, -0.25, -3.5], advantages=[0.0, 0.125, -0.0625])]),
        ("importance_sampling", "model_7", 13, False, None,
         [datum([4, 5], [5, 6], logprobs=[-1.5, -0.75], advantages=[0.5, 0.5])]),
    ]
    out = []
    for name, model_id, seq_id, forward_only, config, data in cases:
        loss_fn = name.split(" ")[0]
        request = types.ForwardBackwardRequest(
            forward_backward_input=types.ForwardBackwardInput(data=data, loss_fn=loss_fn, loss_fn_config=config),
            model_id=model_id, seq_id=seq_id)
        message = request_conv.forward_backward_request_to_proto(request)
        message.forward_only = forward_only  # as resources/training.py forward_backward does
        out.append({
            "name": name,
            "request": {"model_id": model_id, "seq_id": seq_id, "forward_only": forward_only,
                        "data": [datum_json(d) for d in data], "loss_fn": loss_fn,
                        **({} if config is None else {"loss_fn_config": config})},
            "bytes": b64(message.SerializeToString()),
            "deterministic": b64(message.SerializeToString(deterministic=True)),
        })
    return out


def batched(pb, per_datum, dtype):
    import numpy as np
    np_dtype = {pb.DTYPE_FLOAT32: np.float32, pb.DTYPE_INT64: np.int64, pb.DTYPE_BFLOAT16: np.uint16}[dtype]
    arrays = [np.asarray(v, dtype=np.float32).view(np.uint32) >> 16 if dtype == pb.DTYPE_BFLOAT16
              else np.asarray(v, dtype=np_dtype) for v in per_datum]
    arrays = [a.astype(np.uint16) if dtype == pb.DTYPE_BFLOAT16 else a for a in arrays]
    offsets = np.cumsum([0] + [a.nbytes for a in arrays]).astype(np.int64)
    return pb.BatchedTensor(data=b"".join(a.tobytes() for a in arrays), offsets=offsets.tobytes(), dtype=dtype)


def output_json(output):
    return {
        "loss_fn_outputs": [{name: {"data": finite([float(v) if t.dtype == "float32" else int(v) for v in t.data]),
                                    "dtype": t.dtype, "shape": list(t.shape)} for name, t in record.items()}
                            for record in output.loss_fn_outputs],
        "metrics": dict(output.metrics),
    }


def result_cases(pb, response_conv):
    full = pb.ForwardBackwardOutput(loss_fn_output_type="ArrayRecord")
    record = full.loss_fn_outputs.add(num_datums=2)
    record.fields["logprobs"].CopyFrom(batched(pb, [[-0.5, -1.25, -3.0], [-0.125, -7.5]], pb.DTYPE_FLOAT32))
    record.fields["elementwise_loss"].CopyFrom(batched(pb, [[0.0, 0.625, 3.75], [0.0, 7.5]], pb.DTYPE_FLOAT32))
    full.metrics["loss:sum"] = 11.875
    stripped = pb.ForwardBackwardOutput(loss_fn_output_type="ArrayRecord")
    stripped.loss_fn_outputs.add(num_datums=3)
    stripped.metrics["loss:sum"] = 1.5
    legacy = pb.ForwardBackwardOutput(loss_fn_output_type="ArrayRecord")
    old = legacy.loss_fn_outputs.add()
    old.fields["logprobs"].CopyFrom(batched(pb, [[-2.0], [-0.5, -0.25]], pb.DTYPE_FLOAT32))
    bf16 = pb.ForwardBackwardOutput(loss_fn_output_type="ArrayRecord")
    half = bf16.loss_fn_outputs.add(num_datums=1)
    half.fields["logprobs"].CopyFrom(batched(pb, [[-0.5, -1.5, -2.25]], pb.DTYPE_BFLOAT16))
    out = []
    for name, message in [("forward_backward result", full), ("forward_backward result, fields stripped", stripped),
                          ("forward_backward result without num_datums", legacy),
                          ("forward_backward result in bfloat16", bf16)]:
        data = message.SerializeToString()
        out.append({"name": name, "kind": "forward_backward", "bytes": b64(data),
                    "sdk_decoded": output_json(response_conv.deserialize_forward_backward_output(data))})
    sample = pb.SampleResponse(prompt_logprobs=bytes(__import__("numpy").asarray(
        [float("nan"), -1.5, -0.25], dtype="float32").tobytes()), prompt_cache_hit_tokens=0)
    first = sample.sequences.add(stop_reason=pb.STOP_REASON_STOP)
    first.tokens = __import__("numpy").asarray([11, 300, 70000], dtype="int32").tobytes()
    first.logprobs = __import__("numpy").asarray([-0.5, -0.75, -1.0], dtype="float32").tobytes()
    second = sample.sequences.add(stop_reason=pb.STOP_REASON_LENGTH)
    second.tokens = __import__("numpy").asarray([12, 13], dtype="int32").tobytes()
    second.logprobs = __import__("numpy").asarray([-2.0, -0.125], dtype="float32").tobytes()
    data = sample.SerializeToString()
    decoded = response_conv.deserialize_sample_response(data)
    out.append({"name": "sample result", "kind": "sample", "bytes": b64(data), "sdk_decoded": {
        "sequences": [{"tokens": [int(t) for t in s.tokens], "logprobs": [float(v) for v in s.logprobs],
                       "stop_reason": s.stop_reason} for s in decoded.sequences],
        "prompt_logprobs": finite([None if v is None else float(v) for v in decoded.prompt_logprobs]),
    }})
    return out


def json_cases(types, model_dump):
    version = "0.25.0"  # tinker_sdk_version: pyproject.toml of the commit
    c = lambda cls, **fields: cls.construct(**fields)  # noqa: E731
    prompt = text(types, [1, 2, 3])
    params = c(types.SamplingParams, max_tokens=16, seed=42, stop=[0], temperature=1.0, top_k=-1, top_p=1.0)
    adam = c(types.AdamParams, learning_rate=0.001, beta1=0.9, beta2=0.95, eps=1e-8, weight_decay=0.1,
             grad_clip_norm=1.0)
    cases = [
        ("/api/v1/client/config", c(types.ClientConfigRequest, sdk_version=version)),
        ("/api/v1/create_session", c(types.CreateSessionRequest, tags=["budgetrl"], user_metadata={}, sdk_version=version)),
        ("/api/v1/session_heartbeat", c(types.SessionHeartbeatRequest, session_id="session_1")),
        ("/api/v1/create_model", c(types.CreateModelRequest, 
            session_id="session_1", model_seq_id=0, base_model="Qwen/Qwen3-4B",
            lora_config=c(types.LoraConfig, rank=32, seed=7))),
        ("/api/v1/optim_step", c(types.OptimStepRequest, adam_params=adam, model_id="model_1", seq_id=5)),
        ("/api/v1/save_weights", c(types.SaveWeightsRequest, model_id="model_1", path="budgetrl-step-10", seq_id=6)),
        ("/api/v1/load_weights", c(types.LoadWeightsRequest, 
            model_id="model_1", path="tinker://model_0/weights/budgetrl-step-10", optimizer=True, seq_id=1)),
        ("/api/v1/save_weights_for_sampler", c(types.SaveWeightsForSamplerRequest, 
            model_id="model_1", path="budgetrl-step-10-sampler", seq_id=7)),
        ("/api/v1/save_weights_for_sampler", c(types.SaveWeightsForSamplerRequest, 
            model_id="model_1", sampling_session_seq_id=2, seq_id=8)),
        ("/api/v1/create_sampling_session", c(types.CreateSamplingSessionRequest, 
            session_id="session_1", sampling_session_seq_id=0, base_model="Qwen/Qwen3-4B")),
        ("/api/v1/create_sampling_session", c(types.CreateSamplingSessionRequest, 
            session_id="session_1", sampling_session_seq_id=1, model_path="tinker://model_1/sampler_weights/x")),
        ("/api/v1/asample", c(types.SampleRequest, 
            sampling_session_id="sampling_1", seq_id=4, num_samples=2, prompt=prompt, sampling_params=params,
            prompt_logprobs=False, topk_prompt_logprobs=0)),
        ("/api/v1/asample", c(types.SampleRequest, 
            sampling_session_id="sampling_1", seq_id=5, num_samples=1, prompt=prompt,
            sampling_params=c(types.SamplingParams, max_tokens=1, seed=0, stop=[], temperature=1.0, top_k=-1, top_p=1.0),
            prompt_logprobs=True, topk_prompt_logprobs=0)),
        ("/api/v1/retrieve_future", c(types.FutureRetrieveRequest, request_id="request_9", allow_metadata_only=False)),
        ("/api/v1/unload_model", c(types.UnloadModelRequest, model_id="model_1")),
    ]
    return [{"path": path, "body": model_dump(request, exclude_unset=False, exclude_none=True, mode="json")}
            for path, request in cases]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sdk", required=True, help="the SDK's src/ folder (holding tinker/)")
    parser.add_argument("--commit", required=True, help="the SDK commit the folder was taken from")
    parser.add_argument("--out", default="test/tinker/fixtures/sdk-wire/fixtures.json")
    args = parser.parse_args()
    types, model_dump, request_conv, response_conv, pb = load_sdk(args.sdk)
    import google.protobuf
    import numpy
    import pydantic
    fixtures = {
        "sdk": {"version": "0.25.0", "commit": args.commit},
        "producer": {"python": sys.version.split()[0], "protobuf": google.protobuf.__version__,
                     "numpy": numpy.__version__, "pydantic": pydantic.VERSION,
                     "script": "scripts/tinker-wire-fixtures.py"},
        "forward_backward_requests": forward_backward_cases(types, request_conv),
        "results": result_cases(pb, response_conv),
        "json_requests": json_cases(types, model_dump),
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as file:
        json.dump(fixtures, file, indent=1)
        file.write("\n")
    print(f"wrote {args.out}: {len(fixtures['forward_backward_requests'])} forward_backward requests, "
          f"{len(fixtures['results'])} results, {len(fixtures['json_requests'])} JSON requests")


if __name__ == "__main__":
    main()

"""The real local model server (tests/conftest.py's ``llama_server``) through the openai SDK."""
from __future__ import annotations

import json

import openai
import pytest

pytestmark = pytest.mark.llm

PERSON_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
}


@pytest.fixture(scope="module")
def client(llama_server):
    return openai.OpenAI(base_url=llama_server.base_url, api_key="local", max_retries=0, timeout=60)


def test_models_lists_smollm2(llama_server):
    assert llama_server.model == "SmolLM2-135M-Instruct"
    assert llama_server.base_url == f"http://127.0.0.1:{llama_server.port}/v1"


def test_chat_completion_returns_text(client, llama_server):
    r = client.chat.completions.create(
        model=llama_server.model,
        messages=[{"role": "user", "content": "Say hello in one short sentence."}],
        max_tokens=16, temperature=0)
    text = r.choices[0].message.content
    assert isinstance(text, str) and text.strip()
    assert r.usage.completion_tokens > 0


def test_json_object_mode_returns_json(client, llama_server):
    r = client.chat.completions.create(
        model=llama_server.model,
        messages=[{"role": "system", "content": "Reply with a JSON object only."},
                  {"role": "user", "content": 'Give a JSON object with a key "city" naming a city.'}],
        response_format={"type": "json_object"},
        max_tokens=48, temperature=0)
    content = r.choices[0].message.content
    assert r.choices[0].finish_reason == "stop", content  # grammar-constrained JSON, complete
    assert isinstance(json.loads(content), dict)


def test_json_object_with_schema_conforms(client, llama_server):
    # llama-cpp-python's own structured-output form: json_object plus a "schema" (compiled to a grammar)
    r = client.chat.completions.create(
        model=llama_server.model,
        messages=[{"role": "user", "content": "Invent a person. Reply in JSON with name and age."}],
        response_format={"type": "json_object", "schema": PERSON_SCHEMA},
        max_tokens=48, temperature=0)
    data = json.loads(r.choices[0].message.content)
    assert isinstance(data["name"], str) and isinstance(data["age"], int)


def test_json_schema_response_format_is_rejected(client, llama_server):
    # OpenAI's {"type": "json_schema"} is not accepted by llama-cpp-python 0.3.36's server: the body
    # fails validation ("Input should be 'text' or 'json_object'") and the server answers HTTP 500
    # (not 400 or 422), naming response_format.type.
    with pytest.raises(openai.InternalServerError) as info:
        client.chat.completions.create(
            model=llama_server.model,
            messages=[{"role": "user", "content": "Invent a person."}],
            response_format={"type": "json_schema",
                             "json_schema": {"name": "Person", "schema": PERSON_SCHEMA, "strict": False}},
            max_tokens=32, temperature=0)
    assert info.value.status_code == 500
    assert "response_format" in str(info.value) and "json_object" in str(info.value)

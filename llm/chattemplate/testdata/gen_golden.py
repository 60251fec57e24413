#!/usr/bin/env python3
"""Renders cases.json through every template in templates/ with Jinja2,
configured as Hugging Face transformers' apply_chat_template, into golden/."""
import datetime, glob, json, os, sys
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.ext import loopcontrols

here = os.path.dirname(os.path.abspath(__file__))

def raise_exception(msg):
    raise Exception(msg)

def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
NOW = datetime.datetime(2026, 11, 26, 8, 0, 0)
env.globals["strftime_now"] = lambda f: NOW.strftime(f)

cases = json.load(open(os.path.join(here, "cases.json")))
os.makedirs(os.path.join(here, "golden"), exist_ok=True)
for path in sorted(glob.glob(os.path.join(here, "templates", "*.jinja"))):
    name = os.path.basename(path)[: -len(".jinja")]
    tpl = env.from_string(open(path).read())
    for case, data in cases.items():
        d = dict(data, bos_token="<s>", eos_token="</s>", add_generation_prompt=True)
        try:
            out = tpl.render(**d)
        except Exception as e:
            out = "ERROR: " + str(e)
        with open(os.path.join(here, "golden", f"{name}.{case}.txt"), "w") as f:
            f.write(out)

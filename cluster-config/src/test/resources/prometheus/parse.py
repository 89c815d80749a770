"""Parses a Prometheus text exposition (the file named by the first argument) with the Prometheus
project's own parser, prometheus_client.parser, and prints its metric families as one JSON array:
[{"name", "type", "help", "samples": [{"name", "labels", "value"}]}]. A line the parser refuses
raises, and so exits non-zero with its traceback on stderr.

Values are printed as strings (Prometheus' spelling of the infinities and NaN), which JSON has no
numbers for."""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families


def spelled(value):
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(value)


with open(sys.argv[1], encoding="utf-8") as scrape:
    text = scrape.read()
families = [
    {
        "name": family.name,
        "type": family.type,
        "help": family.documentation,
        "samples": [
            {"name": s.name, "labels": s.labels, "value": spelled(s.value)}
            for s in family.samples
        ],
    }
    for family in text_string_to_metric_families(text)
]
json.dump(families, sys.stdout)

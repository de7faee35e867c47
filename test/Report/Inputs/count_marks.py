"""Counts, per kernel section of a rendered ke-report page (Chromium's
--dump-dom), the marks carrying data-node and the nodes the section says it
has; prints the script's own setup time. Usage: count_marks.py DOM.html"""
import sys
from html.parser import HTMLParser


class Counter(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections = []
        self.script_ms = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body" and "data-script-ms" in attrs:
            self.script_ms = attrs["data-script-ms"]
        if tag == "section" and "kernel" in attrs.get("class", ""):
            self.sections.append([attrs["data-kernel"], int(attrs["data-nodes"]), 0])
        elif "data-node" in attrs and self.sections:
            self.sections[-1][2] += 1


counter = Counter()
counter.feed(open(sys.argv[1], encoding="utf-8").read())
for name, nodes, marks in counter.sections:
    print(f"kernel {name}: {marks} marks of {nodes} nodes")
print(f"script ran: {'yes' if counter.script_ms is not None else 'no'}")

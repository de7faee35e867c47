#!/usr/bin/env python3
"""The real-model bench's table (bench/llm_real.sh): per configuration, what
the LLM's calls became, read from each search's database.

    bench/llm_table.py NAME=DB [NAME=DB ...]

Columns: calls (LLM requests, repairs and re-asks included), replies
(answered), parsed (became a schedule or a rewrite), valid (candidates that
built and were evaluated), correct, faster than the parent, tokens,
seconds per call, and the search's best speedup over naive (all proposers).
"""
import sqlite3
import sys


def summarize(path):
    db = sqlite3.connect(path)
    calls = db.execute("select count(*), sum(status = 'ok'), "
                       "coalesce(sum(prompt_tokens + completion_tokens), 0), "
                       "avg(latency_s), sum(finish_reason = 'length') from llm_calls").fetchone()
    nodes = db.execute("select n.status, n.strategy, n.error, n.speedup, p.speedup, "
                       "n.parent is null from nodes n left join nodes p on n.parent = p.id "
                       "where n.proposer like 'llm:%'").fetchall()
    parsed = sum(1 for status, strategy, error, *_ in nodes
                 if not strategy.startswith("llm: ") and not error.startswith("llm:"))
    valid = sum(1 for status, strategy, error, *_ in nodes
                if status in ("correct", "incorrect")
                or (status == "failed" and not error.startswith(("verify:", "llm:", "schedule:"))))
    correct = sum(1 for status, *_ in nodes if status == "correct")
    faster = sum(1 for status, _, _, speedup, parent_speedup, root in nodes
                 if status == "correct" and speedup
                 and speedup > (1.0 if root else (parent_speedup or 0)))
    best = db.execute("select max(speedup) from nodes where status = 'correct'").fetchone()[0]
    return {"llm nodes": len(nodes), "calls": calls[0] or 0, "replies": calls[1] or 0,
            "parsed": parsed, "valid": valid, "correct": correct, "faster": faster,
            "tokens": calls[2] or 0, "s/call": calls[3], "cut": calls[4] or 0, "best": best}


def main():
    print("| configuration | LLM nodes | calls | replies | parsed | valid | correct | "
          "faster than parent | cut at length | tokens | s per call | best speedup |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for argument in sys.argv[1:]:
        name, path = argument.split("=", 1)
        try:
            row = summarize(path)
        except sqlite3.Error as error:
            print(f"| {name} | {error} |")
            continue
        seconds = f"{row['s/call']:.1f}" if row["s/call"] is not None else "-"
        best = f"{row['best']:.2f}x" if row["best"] else "-"
        print(f"| {name} | {row['llm nodes']} | {row['calls']} | {row['replies']} | "
              f"{row['parsed']} | {row['valid']} | {row['correct']} | {row['faster']} | "
              f"{row['cut']} | {row['tokens']} | {seconds} | {best} |")


if __name__ == "__main__":
    main()

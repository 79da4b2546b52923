#!/usr/bin/env python3
"""Run independent conversations through `nofxi chat --json`, each in a fresh copy of the world.

Writes OUT/ID.md (transcript + state after, for the judge) and OUT/summary.json (model calls)."""
import argparse, json, os, shutil, subprocess, sys, tempfile, glob, concurrent.futures as cf

def sh(binary, home, *args):
    env = dict(os.environ, NOFXI_HOME=home)
    r = subprocess.run([binary, *args], env=env, capture_output=True, text=True, timeout=60)
    return (r.stdout or r.stderr).strip()

def build_world(binary, standin):
    home = tempfile.mkdtemp(prefix="nofxi-world-")
    env = dict(os.environ, NOFXI_HOME=home)
    subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "world.sh"), binary], env=env, check=True)
    if standin:
        subprocess.run([binary, "model", "add", "--name", "standin", "--provider", "openai",
                        "--base-url", f"http://127.0.0.1:{standin}/v1", "--model-name", "standin-1",
                        "--api-key", "sk-standin0000000000000000"], env=env, check=True, capture_output=True)
        subprocess.run([binary, "config", "set", "assistant.model", "standin"], env=env, check=True, capture_output=True)
    return home

STATE = [("traders", ["trader", "list"]), ("exchanges", ["exchange", "list"]), ("models", ["model", "list"]),
         ("strategies", ["strategy", "list"]), ("portfolio", ["portfolio", "list"])]

def run_one(binary, world, conv, out):
    home = tempfile.mkdtemp(prefix="nofxi-conv-")
    shutil.rmtree(home); shutil.copytree(world, home)
    try:
        turns = [t["user"] for t in conv["turns"]]
        env = dict(os.environ, NOFXI_HOME=home)
        p = subprocess.run([binary, "chat", "--json"], input="\n".join(turns) + "\n", env=env,
                           capture_output=True, text=True, timeout=600)
        lines = [l for l in p.stdout.splitlines() if l.strip()]
        md = [f"# {conv['id']}", "", f"Scenario: {conv.get('scenario','')}", ""]
        calls = []
        for i, t in enumerate(conv["turns"]):
            resp = json.loads(lines[i]) if i < len(lines) else {"reply": f"<no answer; stderr: {p.stderr[-500:]}>"}
            llm = resp.get("llm", {}).get("calls", 0); calls.append(llm)
            execd = [e.get("tool") or e.get("name") for e in resp.get("events", []) if e.get("type") == "tool_executed"]
            confirm = any(e.get("type") == "confirmation_requested" for e in resp.get("events", []))
            md += [f"## Turn {i+1}", f"USER: {t['user']}", f"EXPECT: {t.get('expect','')}", "",
                   "NOFXI:", "```", resp.get("reply", ""), "```",
                   f"(tools executed: {execd or 'none'}; confirmation requested: {confirm}; model calls: {llm})", ""]
        md += [f"EXPECT AT END: {conv.get('expect_end','')}", "", "## State after the conversation"]
        for name, args in STATE:
            md += [f"### {name}", "```", sh(binary, home, *args), "```"]
        open(os.path.join(out, conv["id"] + ".md"), "w").write("\n".join(md) + "\n")
        return conv["id"], calls
    finally:
        shutil.rmtree(home, ignore_errors=True)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True); ap.add_argument("--convs", required=True)
    ap.add_argument("--out", required=True); ap.add_argument("--standin", type=int)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    convs = []
    for f in sorted(glob.glob(os.path.join(a.convs, "*.json"))):
        data = json.load(open(f))
        convs += data if isinstance(data, list) else [data]
    world = build_world(a.bin, a.standin)
    results = {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for cid, calls in ex.map(lambda c: run_one(a.bin, world, c, a.out), convs):
            results[cid] = calls
    turns = sum(len(c) for c in results.values()); total = sum(sum(c) for c in results.values())
    summary = {"conversations": len(results), "turns": turns, "model_calls": total,
               "calls_per_turn": round(total / max(turns, 1), 3),
               "max_calls_in_a_turn": max((max(c) for c in results.values() if c), default=0), "per_conv": results}
    json.dump(summary, open(os.path.join(a.out, "summary.json"), "w"), indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "per_conv"}))

if __name__ == "__main__":
    main()

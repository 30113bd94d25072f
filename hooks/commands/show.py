"""``receipt show``: the receipt as a person reads it, and whether it vouches for HEAD."""

from __future__ import annotations

from hooks.core.output import print_findings
from hooks.core.output import write
from hooks.receipt.judge.check import judge_by_committed_policy
from hooks.receipt.judge.verdict import Requirements


def show(receipt_arg: str | None) -> int:
    """Print the receipt, then the check's verdict for HEAD; exits with the check's code."""
    from hooks.core.output import warn

    result = judge_by_committed_policy(["HEAD"], receipt_arg, lambda _policy_file: Requirements())
    for note in result.policy_notes:
        warn(note)
    loaded = result.receipt
    data = loaded.data if loaded else None
    if data is not None and loaded is not None and not loaded.findings:
        tests = data.get("tests")
        counted = (f"{tests['passed']} passed, {tests['failed']} failed, {tests['skipped']} "
                   f"skipped, {tests['errors']} errors of {tests['total']} ({tests['runner']})"
                   if isinstance(tests, dict) else "not recognised in the output")
        output = data["output"]
        rows = [
            ("receipt", result.shown),
            ("command", data["command"]),
            ("exit code", str(data["exit_code"])),
            ("tests", counted),
            ("tree", f"{data['git_tree']}"
                     f"{' (uncommitted changes)' if data['git_dirty'] else ''}"),
            ("tree after", data["git_tree_after"]
             + ("" if data["git_tree_after"] == data["git_tree"] else "  <- the run changed it")),
            ("head", data["git_head"] or "(unborn branch)"),
            ("ran", f"{data['started_utc']} .. {data['finished_utc']} ({data['duration_s']}s)"),
            ("where", f"{data['hostname']}, {data['kernel']}, {data['runtime']}"),
            ("output", f"{output['log'] or 'no log kept (--log /dev/null)'} "
                       f"({output['bytes']} bytes, sha256 {output['sha256'][:16]}...)"),
        ]
        shard = data.get("shard")
        if isinstance(shard, dict):
            rows.append(("shard", f"{shard.get('index')} of {shard.get('count')} (vouches only "
                                  f"with every shard of the split)"))
        width = max(len(k) for k, _ in rows)
        write("".join(f"{key.ljust(width)}  {value}\n" for key, value in rows) + "\n")
    code = result.exit_code
    composed = [(d, shown) for found in result.vouching.values() for d, shown in found
                if isinstance(d.get("shard"), dict)]
    if composed:  # the set of shards that vouched, one line each
        write("composed of\n" + "".join(
            f"  shard {d['shard'].get('index')}/{d['shard'].get('count')}  exit "
            f"{d.get('exit_code')}  {d.get('hostname')}  {d.get('finished_utc')}  {shown}\n"
            for d, shown in composed) + "\n")
    if code == 0:
        write(result.vouched() + "\n")
    print_findings(result.findings, fmt="text", exit_code=code)
    return code

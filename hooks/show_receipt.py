"""``receipt show``: the receipt as a person reads it, and whether it vouches for HEAD."""

from __future__ import annotations

from hooks import check_receipt
from hooks import git_repo
from hooks import receipts
from hooks.output import ArgumentParser
from hooks.output import warn


def show(receipt_arg: str | None) -> int:
    try:
        paths = git_repo.repo_paths()
    except git_repo.GitError as e:
        warn(f"receipt show: {e}: run it inside a git work tree")
        return 1
    receipt_path, _ = receipts.resolve_paths(paths.root, receipt_arg, None)
    shown = receipts.repo_relative(paths.root, receipt_path)
    loaded = receipts.load(receipt_path, shown, receipts.memo_dir(paths))
    data = loaded.data
    if data is not None and not loaded.findings:
        tests = data.get("tests")
        counted = (f"{tests['passed']} passed, {tests['failed']} failed, {tests['skipped']} "
                   f"skipped, {tests['errors']} errors of {tests['total']} ({tests['runner']})"
                   if isinstance(tests, dict) else "not recognised in the output")
        output = data["output"]
        rows = [
            ("receipt", shown),
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
            ("output", f"{output['log']} ({output['bytes']} bytes, sha256 "
                       f"{output['sha256'][:16]}...)"),
        ]
        width = max(len(k) for k, _ in rows)
        for key, value in rows:
            print(f"{key.ljust(width)}  {value}")
        print()
    parser = ArgumentParser(prog="receipt show")
    check_receipt.add_arguments(parser)
    check_args = ["--rev", "HEAD", *(["--receipt", receipt_arg] if receipt_arg else [])]
    return check_receipt.check(parser.parse_args(check_args))

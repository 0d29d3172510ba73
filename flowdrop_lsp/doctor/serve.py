"""`flowdrop-lsp doctor [PATH]` running: the site read on the worker thread, the application
bound, two lines on stdout — `flowdrop-lsp doctor listening on http://HOST:PORT` (the port really
bound, for `--port 0`) first, flushed, so that a script can wait for it; then the site and the
routes — and served until Ctrl-C or SIGTERM, which stop it cleanly (exit 0).

Logs (an analysis that failed, with its traceback) go to stderr; stdout holds those two lines
only. Exit 2: options that cannot run, a site that cannot be read, an address already taken."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from aiohttp import web

from flowdrop_lsp.core.doctor import DoctorService
from flowdrop_lsp.doctor.app import PREFIXES, ROUTES, make_app
from flowdrop_lsp.doctor.body import Limits
from flowdrop_lsp.doctor.options import DoctorOptions, OptionsError, options_from
from flowdrop_lsp.doctor.worker import DoctorFactory, DoctorWorker

EXIT_OK, EXIT_USAGE = 0, 2
SHUTDOWN_SECONDS = 5.0  # how long answers in flight may take once asked to stop


def url_of(address: tuple[object, ...]) -> str:
    host, port = str(address[0]), address[1]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def routes_line(site_label: str) -> str:
    routes = " and ".join(f"POST {route}" for route in ROUTES)
    also = ", ".join(prefix for prefix in PREFIXES if prefix)
    return f"{site_label}; answering {routes} (also under {also})"


def _fail(message: str) -> int:
    print(f"flowdrop-lsp doctor: {message}", file=sys.stderr, flush=True)
    return EXIT_USAGE


async def serve(
    options: DoctorOptions, factory: DoctorFactory, limits: Limits | None = None
) -> int:
    limits = limits or Limits()
    worker = DoctorWorker(limits.max_queued)
    runner: web.AppRunner | None = None
    try:
        try:
            label = await worker.start(factory, options.site)
        except Exception as error:
            if not isinstance(error, OSError):  # not the disk's doing: say where it broke
                logging.getLogger("flowdrop_lsp.doctor").exception("reading the site failed")
            return _fail(f"cannot read the site {options.site}: {type(error).__name__}: {error}")
        app = make_app(
            worker, token=options.token, allowed_origins=options.allowed_origins, limits=limits
        )
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        try:
            await web.TCPSite(runner, options.host, options.port).start()
        except OSError as error:
            reason = error.strerror or error
            return _fail(f"cannot listen on {options.host}:{options.port}: {reason}")
        print(f"flowdrop-lsp doctor listening on {url_of(runner.addresses[0])}", flush=True)
        print(routes_line(label), flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C raises instead
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        return EXIT_OK
    finally:
        if runner is not None:
            await runner.cleanup()
        worker.close()


def run_doctor(args: argparse.Namespace, factory: DoctorFactory | None = None) -> int:
    try:
        options = options_from(args)
    except OptionsError as error:
        return _fail(str(error))
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.WARNING,
        format="flowdrop-lsp doctor: %(levelname)s %(message)s",
    )
    try:
        return asyncio.run(serve(options, factory or DoctorService))
    except KeyboardInterrupt:
        return EXIT_OK

"""Stopping the server with phones on the live stream: the streams end, nothing is left
writing to a closed server."""

from __future__ import annotations

import http.client

from dicetray.web.app import Serving, WebSettings, create_app


def test_a_stop_ends_every_live_stream_before_the_server_closes(sim_tray):
    tray = sim_tray(seed=5, code="STOPIT")
    app = create_app(tray.table, secret_key=b"t" * 32, settings=WebSettings(stop_check_s=0.1))
    serving = Serving(app, host="127.0.0.1", port=0, threads=4)
    server = serving.server
    phones = []
    for _ in range(3):
        conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        conn.request("GET", "/api/events")
        response = conn.getresponse()
        assert response.status == 200
        assert response.readline().startswith(b"id: ")  # the state, at once
        phones.append(response)
    serving.stop()
    assert not server.task_dispatcher.threads  # every stream's thread has finished
    for response in phones:
        response.read()  # the stream has ended (the read would otherwise wait 10 s and fail)

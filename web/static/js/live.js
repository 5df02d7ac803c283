// Live state: an EventSource on /api/events. The browser reconnects by itself; when the
// stream is closed for good, a new one is opened with a growing pause. After every
// (re)connection and whenever the page becomes visible again (a phone waking from sleep),
// GET /api/state catches up on anything missed: a state is rendered only if its version is
// newer than the one on screen.
import { get } from "./api.js";

export class Live {
  constructor(onState, onConnection = () => {}) {
    this.onState = onState;
    this.onConnection = onConnection;
    this.version = -1;
    this.source = null;
    this.pause = 500;
    this.timer = null;
  }

  start() {
    this.open();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") {
        this.catchUp();
        if (!this.source || this.source.readyState === EventSource.CLOSED) this.open();
      }
    });
    window.addEventListener("online", () => this.catchUp());
    return this.catchUp();
  }

  // personal: the answer to this phone's own request, so its "you" is this phone's session
  // (a state pushed on the stream is the same for every phone)
  accept(state, personal = true) {
    if (!state || typeof state.version !== "number") return false;
    if (personal && state.you) this.onYou(state.you);
    if (state.version <= this.version) return false;
    this.version = state.version;
    this.onState(state);
    return true;
  }

  onYou() {}

  async catchUp() {
    try {
      const state = await get("/api/state");
      this.accept(state);
      return state;
    } catch (error) {
      this.onConnection("offline");
      return null;
    }
  }

  open() {
    clearTimeout(this.timer);
    if (this.source) this.source.close();
    const source = new EventSource("/api/events");
    this.source = source;
    this.onConnection("connecting");
    source.addEventListener("open", () => {
      this.pause = 500;
      this.onConnection("live");
      this.catchUp();
    });
    source.addEventListener("state", (event) => {
      try {
        this.accept(JSON.parse(event.data), false);
      } catch (error) {
        // a broken event is skipped; the next one or the catch-up brings the state
      }
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) {
        this.onConnection("offline");
        this.timer = setTimeout(() => this.open(), this.pause);
        this.pause = Math.min(this.pause * 2, 15000);
      } else {
        this.onConnection("connecting");
      }
    });
  }
}

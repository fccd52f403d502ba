"""The state as a JSON-able dict: what the page shows and `companion replay` prints."""
from __future__ import annotations

from .effects import direction_name
from .state import State

PROMPTS = {
    "color": "{p}: name the colour",
    "target": "{p}: choose a player",
    "challenge_or_accept": "{p}: challenge the Wild Draw Four, or accept and take {n} cards",
    "stack_or_accept": "{p}: answer with a draw card, or accept and take {n} cards",
    "verdict": "Was the challenge won? (verdict guilty / innocent, or reveal {p}'s hand)",
    "reveal": "{p}: show the cards to the camera",
}


def awaiting(s: State) -> dict | None:
    """What the referee waits for: ``{"input", "player", "options", "prompt"}``; None when over."""
    names = [x.name for x in s.seats]
    if s.phase == "setup":
        return {"input": "setup", "player": None, "options": None, "prompt": "Set up the game: players, dealer, deck, rules"}
    if s.phase == "over":
        return None
    if s.phase == "start":
        return {"input": "start", "player": s.name(s.dealer), "options": None,
                "prompt": f"{s.name(s.dealer)}: turn up the first card of the draw pile"}
    if s.phase == "between":
        return {"input": "new_round", "player": s.name(s.dealer), "options": ["new_round", "start"],
                "prompt": "Round over: shuffle, deal the next round and turn up its first card"}
    if s.phase == "scoring":
        need = [s.seats[j].name for j in s.scoring_needed]
        return {"input": "hand", "player": need[0], "options": need,
                "prompt": f"Show {need[0]}'s remaining cards to the camera (or type the points)"}
    if s.steps:
        st = s.steps[0]
        p = s.name(st.player)
        options: list | None = None
        if st.kind == "color":
            options = list(s.deck.colors)
        elif st.kind == "target":
            options = [names[j] for j in st.data.get("choices", s.active())]
        elif st.kind == "verdict":
            options = list(st.data.get("options", ["guilty", "innocent"]))
        elif st.kind in ("challenge_or_accept", "stack_or_accept"):
            options = (["challenge"] if st.kind == "challenge_or_accept" else []) + ["accept", "play"]
        prompt = st.data.get("prompt") or PROMPTS[st.kind].format(p=p, n=s.pending_draw)
        return {"input": st.kind, "player": p, "options": options, "prompt": prompt}
    p = s.name(s.current)
    if s.drew:
        return {"input": "play", "player": p, "options": ["play", "pass"] + (["draw"] if s.rules.draw != "one" else []),
                "prompt": f"{p}: play the card drawn, or pass"}
    return {"input": "play", "player": p, "options": ["play", "draw"],
            "prompt": f"{p}: play a card on {s.top} ({s.color})" if s.top else f"{p}: play a card"}


def snapshot(s: State) -> dict:
    """Everything the table needs to show, as plain JSON-able data."""
    return {
        "players": [x.name for x in s.seats],
        "dealer": s.name(s.dealer) if s.seats else None,
        "deck": s.deck.name if s.deck else None,
        "rules": s.rules.to_dict(),
        "round": s.round,
        "phase": s.phase,
        "current": s.name(s.current) if s.phase == "turn" else None,
        "direction": direction_name(s),
        "top": str(s.top) if s.top else None,
        "color": s.color,
        "hand_counts": {x.name: x.cards for x in s.seats},
        "scores": {x.name: x.score for x in s.seats},
        "eliminated": [x.name for x in s.seats if x.eliminated],
        "teams": [[s.seats[0].name, s.seats[2].name], [s.seats[1].name, s.seats[3].name]] if s.rules.partners else None,
        "pile": [str(c) for c in s.pile],
        "draw_pile": s.draw_pile,
        "pending_draw": s.pending_draw,
        "uno": {"must_call": s.name(s.must_call), "can_be_caught": s.name(s.can_be_caught)},
        "third_person": s.third_person,
        "round_winner": s.name(s.round_winner),
        "game_winner": s.name(s.game_winner),
        "rounds": [dict(r) for r in s.rounds],
        "target_score": s.rules.target_score,
        "awaiting": awaiting(s),
        "announcements": list(s.log),
    }

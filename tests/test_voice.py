"""The referee's voice: the sentences a scripted game produces, the speaker queue's drop rules,
espeak-ng's faults, the [voice] config, the panel's mute button, and a real espeak-ng WAV."""
import logging
import os
import queue
import shutil
import stat
import threading
import wave
from array import array

import pytest

from companion.config import ConfigError, VoiceConfig, parse_config
from companion.panel import ButtonDecoder, RawEdge
from companion.run import Companion, start_voice
from companion.table import Table
from companion.voice import Espeak, Recorder, Sentences, SpeechError, Voice, build_voice
from companion.voice.sentences import Line
from companion.voice.speaker import Speaker

ESPEAK = shutil.which("espeak-ng")
GAME = [{"start": "red 5"}, {"play": "red 7"}, {"play": "red skip"}, {"play": "wild draw four", "color": "blue"},
        {"accept": True}, {"play": "blue draw two"}, {"play": "green 3"}, {"draw": 1}, {"pass": True},
        {"play": "blue 3"}, {"challenge": True}]


def lines_of(events, speak="all"):
    """Every line a game of ``events`` says (None where an input says nothing)."""
    t = Table(None, setup={"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"})
    s = Sentences.load("en", speak=speak)
    said = []
    t.subscribe(lambda u: said.append(s.line(u["announcements"])))
    for ev in events:
        t.submit(ev)
    return [x.text if x else None for x in said]


def test_a_scripted_game_is_said_like_a_person_says_it():
    assert lines_of(GAME) == [
        "First card: red 5. Ann, your turn.",
        "Red 7. Ben, your turn.",
        "Red skip. Cat is skipped. Ann, your turn.",
        "Wild Draw Four. Colour blue. Ben: take 4 cards or challenge the Wild Draw Four.",
        "Ben draws 4. Ben is skipped. Cat, your turn.",
        "Blue Draw Two. Ann draws 2. Ann is skipped. Ben, your turn.",
        "Ben, green 3 does not go: take it back. Ben, draw 2. Cat, your turn.",
        "Cat draws 1.",
        "Cat passes. Ann, your turn.",
        "Blue 3. Ben, your turn.",
        "Not now.",
    ]
    assert not any("_" in x for x in lines_of(GAME) if x)


def test_calls_only_says_what_someone_must_act_on():
    said = lines_of(GAME, speak="calls")
    assert said[0] == "First card: red 5. Ann, your turn."
    assert said[1] is None                                   # a number card and the next turn
    assert said[2] == "Cat is skipped. Ann, your turn."      # "your turn" after an action
    assert said[4] == "Ben draws 4. Ben is skipped. Cat, your turn."
    assert said[7:] == [None, None, None, None]


def test_uno_penalties_and_the_round_end_are_kept_and_said():
    s = Sentences.load("en")
    uno = s.line([{"type": "uno_called", "player": "Ann"}])
    caught = s.line([{"type": "caught", "player": "Ann"},
                     {"type": "penalty", "player": "Ann", "cards": 2, "reason": "caught without calling UNO"}])
    end = s.line([{"type": "went_out", "player": "Ann"}, {"type": "round_over", "winner": "Ann", "points": 52}])
    assert (uno.text, uno.keep) == ("Ann: Uno!", True)
    assert caught.text == "Ann is caught without calling Uno. Ann, draw 2: you did not call Uno." and caught.keep
    assert end.text == "Ann goes out! Ann wins the round: 52 points." and end.keep
    drew = s.line([{"type": "penalty", "player": "Ann", "cards": 2, "reason": "Draw Two"}])
    assert (drew.text, drew.keep) == ("Ann draws 2.", False)       # a Draw Two's cards are no mistake
    # a type with no sentence, or a field missing, is said with the referee's own text, tidied
    assert s.line([{"type": "hands_passed", "text": "Every hand passes on, clockwise"}]).text == \
        "Every hand passes on, clockwise."
    assert s.line([{"type": "played", "text": "Ann plays wild_swap_hands"}]).text == "Ann plays wild swap hands."
    assert s.line([{"type": "setup", "text": "New game"}]) is None


def test_a_translation_is_one_file(tmp_path):
    f = tmp_path / "de.toml"
    f.write_text('[words]\nred = "rot"\n"draw two" = "Zieh zwei"\n[say]\nplayed = "{card}."\n'
                 'turn = "{player}, du bist dran."\n', encoding="utf-8")
    s = Sentences.load("de", path=f)
    line = s.line([{"type": "played", "card": "red draw two"}, {"type": "turn", "player": "Ben"}])
    assert line.text == "Rot Zieh zwei. Ben, du bist dran."
    (tmp_path / "bad.toml").write_text("[say]\nplayed = 3\n")
    with pytest.raises(ValueError, match="bad.toml"):
        Sentences.load(path=tmp_path / "bad.toml")


def test_the_queue_drops_superseded_lines_and_never_uno_or_penalties():
    sp = Speaker(Recorder())                     # not started: every line waits
    turn = lambda n: Line(f"{n}, your turn.", False, ("turn",))   # noqa: E731
    sp.put(turn("Ann"))
    sp.put(turn("Ben"))                          # two "your turn" in a row: the older goes
    assert [x.text for x in sp.waiting()] == ["Ben, your turn."] and sp.dropped == 1
    sp.put(Line("Ben: Uno!", True, ("uno_called",)))
    sp.put(Line("Cat, draw 2.", True, ("penalty",)))
    sp.put(turn("Dan"))
    assert [x.text for x in sp.waiting()] == ["Ben: Uno!", "Cat, draw 2.", "Dan, your turn."]
    assert sp.dropped == 2


def test_speech_never_blocks_the_table_and_lines_are_said_in_order():
    release, busy = threading.Event(), threading.Event()

    class Stuck(Recorder):
        def speak(self, text, started=lambda: None):
            started()
            busy.set()
            release.wait(10)
            self.said.append(text)

    eng = Stuck()
    t = Table(None, setup={"players": ["Ann", "Ben"], "dealer": "Ben"})
    v = Voice(Sentences.load("en"), eng).attach(t)
    t.submit({"start": "red 5"})
    assert busy.wait(5)                             # the first line is being said
    for ev in ({"play": "red 7"}, {"play": "red 8"}, {"play": "blue 2"}, {"play": "red 9"}):
        t.submit(ev)                                # returns while the first line is still being said
    assert t.snapshot()["top"] == "red 9" and not release.is_set()
    release.set()
    assert v.speaker.idle(5)
    assert eng.said[0].startswith("First card: red 5")
    assert any("blue 2 does not go" in x for x in eng.said)    # a penalty is never dropped
    assert eng.said[-1] == "Red 9. Ann, your turn."
    assert len(eng.said) < 5 and v.speaker.dropped >= 1     # "Red 7" and "Red 8" were overtaken
    v.close()


def test_mute_drops_what_waits_and_unmute_says_so():
    t = Table(None, setup={"players": ["Ann", "Ben"], "dealer": "Ben"})
    rec = Recorder()
    v = Voice(Sentences.load("en"), rec).attach(t)
    assert v.set_muted(True) is True
    t.submit({"start": "red 5"})
    assert v.speaker.idle(2) and rec.said == []
    assert v.toggle() is False and v.speaker.idle(2)
    t.submit({"play": "red 6"})
    v.close(timeout=2)
    assert rec.said == ["Voice on.", "Red 6. Ben, your turn."]
    assert v.status() == {"available": True, "muted": False, "problem": None, "language": "en", "speak": "all"}


def fake_espeak(tmp_path, body: str) -> str:
    f = tmp_path / "espeak-ng"
    f.write_text("#!/bin/sh\n" + body + "\n")
    f.chmod(f.stat().st_mode | stat.S_IEXEC)
    return str(f)


def test_espeak_faults_are_one_clear_line(tmp_path):
    assert "not installed" in Espeak(binary="").check()
    alsa = fake_espeak(tmp_path, "cat >/dev/null; echo \"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM "
                                 "default\" >&2; echo 'error: No such file or directory' >&2; exit 0")
    assert Espeak(binary=alsa).check().startswith("no audio device")
    voice = fake_espeak(tmp_path, "cat >/dev/null; echo 'Error: The specified espeak-ng voice does not exist.' >&2; "
                                  "exit 1")
    assert "voice does not exist" in Espeak(binary=voice).check()


def test_a_hung_speech_process_is_killed(tmp_path, monkeypatch):
    hung = fake_espeak(tmp_path, "exec sleep 30")
    eng = Espeak(binary=hung)
    monkeypatch.setattr(eng, "timeout", lambda text: 0.3)
    with pytest.raises(SpeechError, match="stopped"):
        eng.speak("Ann, your turn.")
    sp = Speaker(eng).start()               # in the speaker thread it is one warning, and it goes on
    sp.put(Line("Ann, your turn.", False, ("turn",)))
    assert sp.idle(5) and sp.failed == 1
    sp.close()


def test_no_espeak_means_one_warning_and_a_silent_game(caplog, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))      # espeak-ng nowhere
    cfg = parse_config('[table]\nplayers = ["Ann", "Ben"]\n[voice]\nenabled = true\n')
    t = Table(None, setup=cfg.setup())
    with caplog.at_level(logging.WARNING):
        v = start_voice(cfg, t)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "espeak-ng is not installed" in warnings[0].getMessage()
    assert v is not None and not v.available and "apt install espeak-ng" in v.status()["problem"]
    t.submit({"start": "red 5"})
    assert t.snapshot()["top"] == "red 5"
    assert start_voice(parse_config('[table]\nplayers = ["Ann", "Ben"]\n'), t) is None   # off unless enabled


def test_voice_config_is_checked(tmp_path):
    cfg = parse_config('[voice]\nenabled = true\nvoice = "en-gb"\nrate = 140\nvolume = 60\nspeak = "calls"\n')
    assert cfg.voice == VoiceConfig(True, "en-gb", 140, 60, "calls", "")
    assert parse_config("").voice.enabled is False
    for bad, says in [('rate = 20', "voice.rate"), ('speak = "some"', "voice.speak"), ('voice = "en; rm -rf"', "voice.voice"),
                      ('volume = 101', "voice.volume"), ('loud = true', "voice.loud"),
                      ('sentences = "nowhere.toml"', "voice.sentences")]:
        with pytest.raises(ConfigError, match=says.replace(".", r"\.")):
            parse_config(f"[voice]\n{bad}\n", path=tmp_path / "table.toml")
    (tmp_path / "fr.toml").write_text('[say]\nturn = "{player}, à toi."\n', encoding="utf-8")
    cfg = parse_config('[voice]\nenabled = true\nsentences = "fr.toml"\n', path=tmp_path / "table.toml")
    v = build_voice(cfg.voice, engine=Recorder())
    assert v.sentences.line([{"type": "turn", "player": "Ann"}]).text == "Ann, à toi."
    v.close()


def test_holding_challenge_mutes_and_the_camera_question_is_said():
    from companion.camera.gate import PileEvent
    t = Table(None, setup={"players": ["Ann", "Ben"], "dealer": "Ben"})
    rec = Recorder()
    v = Voice(Sentences.load("en"), rec).attach(t)
    comp = Companion(t, queue.Queue(), decoder=ButtonDecoder(long_buttons=("pass", "challenge")), voice=v)
    out = comp.handle(PileEvent("question", 1.0, candidates=("red 3",), reason="the readings disagree"))
    assert out[0]["type"] == "question" and v.speaker.idle(2)
    assert rec.said[-1] == "Which card was that? (the readings disagree)."
    out = comp.handle(RawEdge("challenge", True, 0.0)) + comp.handle(RawEdge("challenge", False, 1.5))
    assert [a["type"] for a in out] == ["voice"] and v.muted
    assert t.snapshot()["awaiting"]["input"] == "start"           # nothing of the game changed
    out = comp.handle(RawEdge("challenge", True, 2.0)) + comp.handle(RawEdge("challenge", False, 2.1))
    assert v.muted and [a["type"] for a in out] == ["rejected"]   # a short press is a challenge, not a mute
    v.close()


def _rms(path) -> tuple[float, float]:
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
    samples = array("h", frames)
    return seconds, (sum(x * x for x in samples) / max(len(samples), 1)) ** 0.5


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed (the Makefile installs it as root)")
def test_espeak_ng_really_speaks_the_lines(tmp_path):
    s = Sentences.load("en")
    eng = Espeak("en", 165, 80)
    lines = [s.line([{"type": "played", "card": "red 7"}, {"type": "turn", "player": "Ben"}]).text,
             s.line([{"type": "played", "card": "wild draw four"}, {"type": "color_named", "color": "blue"},
                     {"type": "penalty", "player": "Cat", "cards": 4, "reason": "Wild Draw Four"}]).text,
             s.line([{"type": "caught", "player": "Ann"},
                     {"type": "penalty", "player": "Ann", "cards": 2, "reason": "caught without calling UNO"}]).text]
    for i, text in enumerate(lines):
        seconds, rms = _rms(eng.wav(text, tmp_path / f"{i}.wav"))
        words = len(text.split())
        assert 0.15 * words < seconds < 0.8 * words + 1.0, (text, seconds)   # 165 words a minute is 0.36 s a word
        assert rms > 300, (text, rms)                                        # sound, not silence
    quiet, _ = _rms(eng.wav("Ben.", tmp_path / "short.wav"))
    assert quiet < _rms(tmp_path / "1.wav")[0]
    assert os.path.getsize(tmp_path / "1.wav") > 20_000


def test_a_newer_line_cuts_a_routine_line_short_but_never_a_kept_one():
    rec = Recorder(seconds=5)
    sp = Speaker(rec).start()
    sp.put(Line("Red 7. Ben, your turn.", False, ("played", "turn")))
    _wait_for(lambda: rec.said)
    sp.put(Line("Blue 7. Cat, your turn.", False, ("played", "turn")))     # the table moved on
    _wait_for(lambda: len(rec.said) == 2)
    assert rec.cut == ["Red 7. Ben, your turn."] and sp.cut == 1
    sp.put(Line("Cat, draw 2: you did not call Uno.", True, ("penalty",)))  # cuts "Blue 7" too
    _wait_for(lambda: len(rec.said) == 3)
    sp.put(Line("Red 2. Dan, your turn.", False, ("played", "turn")))      # waits for the penalty
    assert sp.cut == 2 and rec.said[-1].startswith("Cat, draw 2") and len(rec.cut) == 2
    sp.close()


def _wait_for(cond, timeout=5.0):
    import time
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_the_voice_modules_examples_hold():
    import doctest

    import companion.voice
    import companion.voice.espeak
    import companion.voice.sentences
    import companion.voice.speaker
    for mod in (companion.voice, companion.voice.espeak, companion.voice.sentences, companion.voice.speaker):
        result = doctest.testmod(mod)
        assert result.failed == 0 and (result.attempted or mod is companion.voice.espeak), mod.__name__

"""Three realistic Weiss Schwarz matches (seed 003), each playable clean or with one dispute.

Each match is a function ``match_x(t)``: ``t.bug`` names the single violation
to write (``None`` writes the clean match). Where a bug is written, the
function records the finding the seed's ruling gives, at the seq the docs say
it is reported (``t.expect_at``). Everything else is what a table records.
"""

from __future__ import annotations

from table import REST, Chara, JudgeCalled, Side, Table, board

AOI, REN = "aoi", "ren"


# --- match A: from the opening hands to a concession, eight turns -------------------------


def match_a(t: Table) -> None:
    """Early game: level-0 fights, ties, counters, encores, a climax, a bounce, level-ups."""
    t.opening({AOI: 2, REN: 1})
    a_turn1(t)
    a_turn2(t)
    a_turn3(t)
    a_turn4(t)
    a_turn5(t)
    a_turn6(t)
    a_turn7(t)
    a_turn8(t)
    a_turn9(t)
    if t.bug == "same-player-twice":
        t.expect_at("WS-FLOW-004", t.turn(AOI))
        t.ev("note", by="judge", text="ジャッジコール: 同じプレイヤーのターンが続いた")
        return
    t.ev("ws.lose", by=REN, player=REN, reason="concede")
    t.ev("match.end", by="judge", winner=AOI, reason="concede")


def a_turn1(t: Table) -> None:
    """First player's first turn: one direct attack only."""
    t.turn(AOI)
    t.stand_phase()
    t.draw_phase()
    t.clock_phase("Index")
    t.phase("main")
    t.play("C2", "Ruiko Saten", 0, 3000)
    t.play("C1", "Kuroko Shirai", 0, 2500)
    t.play("B1", "Kazari Uiharu", 0, 2500)
    t.phase("climax")
    t.phase("attack")
    t.attack("C2", "direct")
    if t.bug == "t1-second-attack":
        t.expect_at("WS-ATK-002", t.declare("C1", "direct"))
        t.trigger()
        t.step("damage")
        t.damage()
    t.encore_step()
    t.end_phase()


def a_turn2(t: Table) -> None:
    """Ren: a tie with a counter (both reversed), a side attack, a cancelled direct attack, an encore."""
    t.turn(REN)
    t.stand_phase()
    t.draw_phase()
    t.clock_phase("Marianne")
    t.phase("main")
    t.play("C1", "Shana", 0, 3500)
    t.play("C2", "Yuji Sakai", 0, 3000)
    t.play("C3", "Kazumi Yoshida", 0, 2000)
    t.play("B2", "Wilhelmina", 0, 1500)
    t.phase("climax")
    t.phase("attack")
    if t.bug == "tie-reverses-both-at-a-neither-table":
        t.declare("C1", "front")
        t.trigger(icons=("soul",))
        t.step("counter")
        t.counter("Backup Touma", 1000, 1)
        t.step("damage")
        t.damage()
        t.step("battle")
        t.expect_at("WS-BTL-001", t.battle(["attacker", "defender"]))
    else:
        t.attack("C1", "front", icons=("soul",), counter=("Backup Touma", 1000, 1))
    if t.bug == "direct-into-occupied":
        t.expect_at("WS-ATK-003", t.attack("C2", "direct"))
    else:
        t.attack("C2", "side")
    t.attack("C3", "direct", climax_at=1)
    if t.bug == "encore-order":
        t.step("declare")
        t.step("encore")
        t.expect_at("WS-ENC-001", t.retire(AOI, "C1"))
        t.retire(REN, "C1")
        t.encore(REN, "C1")
    else:
        t.encore_step({(REN, "C1"): {}})
    t.end_phase()


def a_turn3(t: Table) -> None:
    """Aoi: a swap of standing characters, three front attacks, a draw trigger, an encore."""
    t.turn(AOI)
    if t.bug == "stand-phase-partial":
        t.phase("stand")
        t.ev("ws.stand", by=AOI, player=AOI, slots=["B1"])
        t.expect_at("WS-STAND-001", t.phase("draw"))
        t.draw(AOI, 1, "draw-phase")
    else:
        t.stand_phase()
        t.draw_phase()
    t.clock_phase("Touma Kamijou")
    t.phase("main")
    t.play("C1", "Mikoto Misaka", 0, 4000)
    t.play("C3", "Misaki Shokuhou", 0, 3000)
    t.swap("C2", "B1")
    t.phase("climax")
    t.phase("attack")
    t.attack("C1", "front")
    t.declare("C2", "front")
    t.trigger(icons=("draw",))
    t.draw(AOI, 1, "trigger")
    t.step("counter")
    t.step("damage")
    t.damage()
    t.step("battle")
    t.battle()
    if t.bug == "no-trigger-reveal":
        t.declare("C3", "front")
        t.step("trigger")
        t.expect_at("WS-ATK-004", t.step("counter"))
        t.step("damage")
        t.damage()
        t.step("battle")
        t.battle()
    elif t.bug == "damage-short":
        t.declare("C3", "front")
        t.trigger()
        t.step("counter")
        t.step("damage")
        t.expect_at("WS-DMG-001", t.damage(amount=t.soul_damage() - 1))
        t.step("battle")
        t.battle()
    else:
        t.attack("C3", "front")
    if t.bug == "encore-two-stock":
        t.encore_step({(AOI, "C2"): {"stock": 2}})
        t.expect_at("WS-ENC-003", t.last_encore)
    else:
        t.encore_step({(AOI, "C2"): {}})
    t.end_phase()


def a_turn4(t: Table) -> None:
    """Ren: a climax with its own effect, a soul-icon climax trigger, aoi levels up mid-attack."""
    t.turn(REN)
    t.stand_phase()
    t.draw_phase()
    t.clock_phase("Hecate")
    t.phase("main")
    t.play("C1", "Margery Daw", 0, 5000)
    t.play("C3", "Khamsin", 0, 3000)
    t.phase("climax")
    if t.bug == "play-in-climax-phase":
        t.expect_at("WS-FLOW-003", t.play("B1", "Tenmoku Ikko", 0, 1000))
    t.climax("Reiji Maigo")
    for slot in ("C1", "C2", "C3"):
        t.modify(REN, slot, power=1000, soul=1)
    if t.bug == "second-climax":
        t.expect_at("WS-CX-001", t.climax("Crimson Lotus"))
        t.sides[REN].waiting += 1
    t.phase("attack")
    t.attack("C1", t.facing("C1"), icons=("soul",), climax=True)
    t.attack("C2", t.facing("C2"), climax_at=1)
    t.attack("C3", t.facing("C3"))
    if t.bug == "reversed-left-on-stage":
        t.step("declare")
        t.step("encore")
        t.retire(AOI, "C1")
        t.retire(AOI, "C2")
        t.expect_at("WS-ENC-002", t.phase("end"))
        t.ev("note", by="judge", text="ジャッジコール: リバースした C3 が舞台に残っている")
        raise JudgeCalled(len(t.events))
    t.encore_step()
    if t.bug == "climax-stays":
        t.phase("end")
        if t.sides[REN].hand > t.hand_limit:
            t.discard(REN, t.sides[REN].hand - t.hand_limit, "hand-limit")
        t.expect_at("WS-END-002", t.phase_end("end"))
    else:
        t.end_phase()


def a_turn5(t: Table) -> None:
    """Aoi at level 1: no clock, a climax whose AUTO draws, a treasure, a counter that wins, a bounce."""
    t.turn(AOI)
    t.stand_phase()
    t.draw_phase()
    if t.bug == "draw-without-clock":
        t.phase("clock")
        t.expect_at("WS-CLK-001", t.draw(AOI, 2, "clock")[0])
    else:
        t.clock_phase(None)
    t.phase("main")
    t.play("C1", "Kuroko Shirai", 0, 2500)
    t.play("C2", "Mikoto Misaka", 0, 4000)
    t.play("C3", "Touma Kamijou", 0, 3000)
    t.phase("climax")
    t.climax("Railgun")
    t.auto(AOI, "a5-railgun", "Railgun", "このカードが置かれた時、1枚引き、あなたのキャラすべてにソウル+1")
    if t.bug == "resolve-outside-check":
        t.expect_at("WS-CHK-003", t.resolve(AOI, "a5-railgun"))
    else:
        t.check()
        t.resolve(AOI, "a5-railgun")
    t.draw(AOI, 1, "effect")
    for slot in ("C1", "C2", "C3"):
        t.modify(AOI, slot, soul=1)
    if t.bug != "resolve-outside-check":
        t.check_end()
    t.phase("attack")
    t.declare("C1", "side")
    t.side_level = t.defender().level
    t.trigger(icons=("treasure",), climax=True, to="hand")
    t.move(AOI, "deck", "stock")
    t.step("damage")
    t.damage()
    t.attack("C2", "front", counter=("Backup Hecate", 1500, 1))
    t.declare("C3", "front")
    t.trigger(icons=("bounce", "soul"), climax=True)
    t.move(REN, "stage", "hand", slot="C3", card="Khamsin", by=AOI)
    t.step("counter")
    t.step("damage")
    t.damage()
    t.step("battle")
    if t.bug == "battle-after-bounce":
        t.expect_at(
            "WS-BTL-002",
            t.ev("ws.battle", by=AOI, attacker_power=3000, defender_power=3000, reversed=["attacker", "defender"]),
        )
        t.sides[AOI].stage["C3"].state = "reverse"
    t.encore_step({(AOI, "C2"): {}})
    t.end_phase()


def a_turn6(t: Table) -> None:
    """Ren: an event, an ACT that rests a back-row character, both players' AUTOs on one attack."""
    t.turn(REN)
    t.stand_phase()
    t.draw_phase()
    t.clock_phase("Tenmoku Ikko")
    if t.bug == "clock-twice":
        t.expect_at("WS-CLK-002", t.ev("ws.clock", by=REN, player=REN, card="Wilhelmina"))
        t.sides[REN].hand -= 1
        t.sides[REN].clock.append("Wilhelmina")
    t.phase("main")
    t.play("C3", "Shana", 1, 7000, cost=1)
    t.event_card("Fragment of Wish", 0)
    t.draw(REN, 1, "effect")
    t.move(REN, "resolution", "waiting", card="Fragment of Wish")
    t.act("B2", "【起】［(1) このカードをレスト］ 前列のキャラ1枚にパワー+1500", 1, True)
    t.modify(REN, "C2", power=1500)
    t.phase("climax")
    if t.bug == "back-to-main":
        t.expect_at("WS-FLOW-001", t.phase("main"))
        t.play("B1", "Kazumi Yoshida", 0, 2000)
    t.phase("attack")
    t.declare("C3", t.facing("C3"))
    t.auto(
        REN,
        "a6-shana",
        "Shana",
        "このカードがアタックした時、パワー+1000。次のあなたのスタンドフェイズにスタンドしない",
    )
    t.auto(AOI, "a6-last-order", "Last Order", "相手のキャラがアタックした時、山札の上から1枚をストックに置く")
    t.check()
    if t.bug == "non-turn-player-first":
        t.expect_at("WS-CHK-002", t.resolve(AOI, "a6-last-order"))
        t.move(AOI, "deck", "stock")
        t.resolve(REN, "a6-shana")
        t.modify(REN, "C3", power=1000)
    else:
        t.resolve(REN, "a6-shana")
        t.modify(REN, "C3", power=1000)
        if t.bug == "check-ends-with-pending":
            t.expect_at("WS-CHK-004", t.check_end())
            t.ev("note", by="judge", text="ジャッジコール: Last Order の自動能力が解決されていない")
            raise JudgeCalled(len(t.events))
        t.resolve(AOI, "a6-last-order")
        t.move(AOI, "deck", "stock")
    t.check_end()
    t.trigger()
    if t.attack_kind == "front":
        t.step("counter")
    t.step("damage")
    t.damage()
    if t.attack_kind == "front":
        t.step("battle")
        t.battle()
    if t.bug == "counter-on-side":
        t.declare("C2", "side")
        t.side_level = t.defender().level
        t.trigger()
        t.expect_at("WS-ATK-005", t.counter("Backup Kuroko", 1000, 1))
        t.step("damage")
        t.damage()
    else:
        t.attack("C2", "side")
    t.attack("C1", "front")
    t.encore_step({(REN, "C1"): {}} if t.sides[REN].stock >= 3 else {})
    t.end_phase()


def a_turn7(t: Table) -> None:
    """Aoi: plays onto an occupied slot, a level-1 character, ends over the hand limit and discards."""
    t.turn(AOI)
    t.stand_phase()
    if t.bug == "draw-two":
        t.phase("draw")
        t.expect_at("WS-DRAW-001", t.draw(AOI, 2, "draw-phase")[0])
    else:
        t.draw_phase()
    t.clock_phase("Kinuho Wannai")
    t.phase("main")
    t.play("C1", "Last Order", 1, 6000)
    t.play("C3", "Misaki Shokuhou", 1, 5500)
    t.phase("climax")
    t.phase("attack")
    t.attack("C1", "front")
    if t.bug == "attack-twice":
        t.expect_at("WS-ATK-001", t.attack("C1", "side"))
    if t.bug == "battle-step-skipped":
        t.declare("C3", "front")
        t.trigger()
        t.step("counter")
        t.step("damage")
        t.damage()
        t.expect_at("WS-FLOW-002", t.step("declare"))
        t.ev("note", by="judge", text="ジャッジコール: バトルステップを飛ばした")
        raise JudgeCalled(len(t.events))
    t.attack("C3", "front")
    if t.bug == "wrong-battle":
        t.declare("C2", "front")
        t.trigger()
        t.step("counter")
        t.step("damage")
        t.damage()
        t.step("battle")
        t.expect_at("WS-BTL-001", t.battle(["attacker"]))
    else:
        t.attack("C2", "front")
    t.encore_step()
    t.end_phase()


def a_turn8(t: Table) -> None:
    """Ren: Shana stays rested (its AUTO said so); end-of-turn AUTOs in the end phase."""
    t.turn(REN)
    shana = t.sides[REN].stage.get("C3")
    t.stand_phase(held=("C3",) if shana and shana.card == "Shana" and shana.state != "stand" else ())
    t.draw_phase()
    t.clock_phase("Sydonay")
    t.phase("main")
    t.play("C2", "Sydonay", 1, 6500, cost=1)
    t.phase("climax")
    t.phase("attack")
    for slot in ("C2", "C3"):
        if t.sides[REN].stage.get(slot) and t.sides[REN].stage[slot].state == "stand":
            t.attack(slot, t.facing(slot))
    t.encore_step()
    end_phase_with_auto(t, "a8-pheles", "Pheles")


def a_turn9(t: Table) -> None:
    """Aoi: a double-soul climax trigger; ren's counter sends the attacker back to hand (no damage, no battle)."""
    t.turn(AOI)
    t.stand_phase()
    t.draw_phase()
    t.clock_phase("Index")
    t.phase("main")
    t.play("C3", "Touma Kamijou", 1, 6500, cost=1)
    t.phase("climax")
    t.phase("attack")
    first = True
    for slot in ("C1", "C2", "C3"):
        if slot not in t.sides[AOI].stage:
            continue
        kind = t.facing(slot)
        if kind == "front" and t.sides[REN].stock >= 1:
            bounced_attack(t, slot)
        elif first:
            t.attack(slot, kind, icons=("soul", "soul"), climax=True)
        else:
            t.attack(slot, kind)
        first = False
    t.encore_step()
    t.end_phase()


def bounced_attack(t: Table, slot: str) -> None:
    """C: the defender's counter returns the attacker to hand; D.3 攻撃キャラが存在する場合 only, E.3 no battle."""
    t.declare(slot, "front")
    t.trigger()
    t.step("counter")
    t.counter("Counter Judgment", 0, 1)
    t.move(AOI, "stage", "hand", slot=slot, card=t.sides[AOI].stage[slot].card, by=REN)
    t.step("damage")
    t.step("battle")


def end_phase_with_auto(t: Table, ability: str, card: str) -> None:
    """エンド 1–6: AUTOs draw at the turn's end and when the climax leaves; over the limit, once more."""
    p, s = t.tp, t.sides[t.tp]
    t.phase("end")
    t.auto(p, ability, card, "ターンの終わりに、1枚引く")
    t.check()
    t.resolve(p, ability)
    t.draw(p, 1, "effect")
    t.check_end()
    if t.bug == "climax-before-discard" and s.climax and s.hand > t.hand_limit:
        t.ev("ws.climax.leave", by=p, player=p)
        s.climax, s.waiting = None, s.waiting + 1
        t.expect_at("WS-END-004", t.discard(p, s.hand - t.hand_limit, "hand-limit"))
    if s.hand > t.hand_limit:
        t.discard(p, s.hand - t.hand_limit, "hand-limit")
    if s.climax:
        t.ev("ws.climax.leave", by=p, player=p)
        s.climax, s.waiting = None, s.waiting + 1
        t.auto(p, ability + "-cx", "Shana", "あなたのクライマックスが控室に置かれた時、1枚引く")
        t.check()
        t.resolve(p, ability + "-cx")
        t.draw(p, 1, "effect")
        t.check_end()
    if s.hand > t.hand_limit and t.bug == "end-not-repeated":
        t.expect_at("WS-END-001", t.phase_end("end"))
        return
    if s.hand > t.hand_limit:
        t.phase("end")  # エンド 6: once more
        t.discard(p, s.hand - t.hand_limit, "hand-limit")
    if t.bug == "end-with-pending" and p == REN:
        t.auto(p, "c-khamsin", "Khamsin", "ターンの終わりに、このカードを手札に戻す")
        t.expect_at("WS-END-003", t.phase_end("end"))
        raise JudgeCalled(len(t.events))
    t.phase_end("end")


# --- match B: the late game from a board, refresh, level 3 → 4 ------------------------------


def late_sides() -> dict[str, Side]:
    aoi = Side(deck=3, hand=5, stock=7, waiting=26, clock=["Index"], level=["Railgun", "Ruiko Saten", "Touma Kamijou"])
    aoi.stage = {
        "C1": Chara("Mikoto Misaka", 3, 10500, 2, REST),
        "C2": Chara("Accelerator", 2, 9000, 2, REST),
        "C3": Chara("Kuroko Shirai", 3, 9500, 2, REST),
        "B1": Chara("Kazari Uiharu", 1, 4000),
    }
    ren = Side(deck=14, hand=6, stock=2, waiting=18, clock=["Shana", "Hecate"], level=["Pheles", "Khamsin", "Sydonay"])
    ren.stage = {
        "C1": Chara("Shana", 3, 11000, 2, REST),
        "C2": Chara("Margery Daw", 2, 8000, 2, REST),
        "C3": Chara("Hecate", 3, 10000, 2, REST),
        "B1": Chara("Wilhelmina", 1, 3500),
    }
    for s in (aoi, ren):
        s.stage["B2"] = Chara("Kazumi Yoshida", 0, 1500)
    return {AOI: aoi, REN: ren}


def match_b(t: Table) -> None:
    """Turns 14–15 from a board: aoi's deck runs out in the middle of a damage, then ren reaches level 4."""
    board(t, 14, REN, "stand", late_sides())
    t.ev("ws.stand", by=REN, player=REN)
    for c in t.sides[REN].stage.values():
        c.state = "stand"
    t.draw_phase()
    t.clock_phase("Yuji Sakai")
    t.phase("main")
    t.phase("climax")
    t.phase("attack")
    t.attack("C1", "front")
    if t.bug == "damage-at-zero-soul":
        t.declare("C2", "side")
        t.side_level = t.defender().level
        t.trigger()
        t.step("damage")
        t.expect_at("WS-DMG-004", t.damage(amount=1, climax_at=0))
    else:
        t.attack("C2", "side")
    if t.bug == "battle-ignores-counter":
        t.declare("C3", "front")
        t.trigger()
        t.step("counter")
        t.counter("Backup Last Order", 2000, 1)
        t.step("damage")
        t.damage()
        t.step("battle")
        t.counter_power = 0  # the recorder left the backup out of the comparison
        t.expect_at("WS-BTL-003", t.battle())
    else:
        t.attack("C3", "front", counter=("Backup Last Order", 2000, 1))
    t.encore_step({(AOI, "C1"): {}})
    t.end_phase()
    t.turn(AOI)
    t.stand_phase()
    t.draw_phase()
    t.clock_phase(None)
    t.phase("main")
    t.play("C2", "Misaki Shokuhou", 3, 10000, soul=2, cost=2)
    t.event_card("Level 5 Judge", 1)
    t._retired = t.sides[REN].stage["B1"]  # the event sends ren's back-row character away; ren encores it
    t.move(REN, "stage", "waiting", slot="B1", card="Wilhelmina", by=AOI)
    t.encore(REN, "B1")
    t.move(AOI, "resolution", "waiting", card="Level 5 Judge")
    t.phase("climax")
    t.climax("Railgun")
    for slot in ("C1", "C2", "C3"):
        if slot in t.sides[AOI].stage:
            t.modify(AOI, slot, power=1000, soul=1)
    t.phase("attack")
    t.attack("C1", "front", counter=("Backup Hecate", 3000, 1))
    if t.bug == "loss-without-cause":
        t.expect_at("WS-GAME-003", t.ev("ws.lose", by="judge", player=REN, reason="level"))
        t.ev("match.end", by="judge", winner=AOI, reason="level")
        return
    if t.bug == "direct-no-plus-one":
        t.declare("C3", "direct")
        t.trigger()
        t.step("damage")
        t.expect_at("WS-DMG-002", t.damage(amount=t.soul_damage() - 1, climax_at=2))
    elif t.bug == "reveal-past-climax":
        t.declare("C3", "direct")
        t.trigger()
        t.step("damage")
        cards = [{"card": "Yuji Sakai"}, {"card": "CX Crimson Lotus", "climax": True}, {"card": "Hecate"}]
        t.expect_at("WS-DMG-005", t.damage(cards=cards))
    elif "C3" in t.sides[AOI].stage:
        t.attack("C3", t.facing("C3"), climax_at=2)
    t.declare("C2", "front")
    t.trigger(icons=("soul",))
    t.step("counter")
    t.step("damage")
    if t.bug == "no-level-up":
        t.hold_levelup = True
        t.damage()
        t.expect_at("WS-RULE-001", t.step("battle"))
        return
    t.damage()
    if len(t.sides[REN].level) >= 4 and t.bug == "level-four-played-on":
        t.expect_at("WS-GAME-001", t.step("battle"))
        t.ev("note", by="judge", text="ジャッジコール: レベル4のまま続いた")
        return
    if len(t.sides[REN].level) >= 4:
        t.ev("ws.lose", by=REN, player=REN, reason="level")
        if t.bug == "loser-wins":
            t.expect_at("WS-GAME-004", t.ev("match.end", by="judge", winner=REN, reason="level"))
            return
        t.ev("match.end", by="judge", winner=AOI, reason="level")
        return
    t.step("battle")
    t.battle()
    t.encore_step()
    t.end_phase()


# --- match C: mid-game from a board, ren's turn: shot, choice, pool, gate, encores -----------


def mid_sides() -> dict[str, Side]:
    aoi = Side(
        deck=21,
        hand=7,
        stock=4,
        waiting=9,
        clock=["Index", "Mikoto Misaka", "Kinuho Wannai", "Last Order"],
        level=["Kuroko Shirai"],
    )
    aoi.stage = {
        "C1": Chara("Mikoto Misaka", 1, 7000, 1, REST),
        "C2": Chara("Misaki Shokuhou", 1, 6000, 1, REST),
        "C3": Chara("Ruiko Saten", 1, 5000, 1, REST),
        "B1": Chara("Kazari Uiharu", 0, 2500),
    }
    ren = Side(
        deck=19,
        hand=7,
        stock=3,
        waiting=12,
        clock=["Hecate", "Marianne", "Khamsin", "Pheles", "Sydonay"],
        level=["Wilhelmina"],
    )
    ren.stage = {
        "C1": Chara("Shana", 1, 6500, 1, REST),
        "C2": Chara("Yuji Sakai", 1, 5000, 1, REST),
        "B2": Chara("Kazumi Yoshida", 0, 2000, 1, REST),
    }
    return {AOI: aoi, REN: ren}


def match_c(t: Table) -> None:
    """Turn 8, ren: pool, shot, choice triggers; a cancel then a shot; encores by rule and by ability."""
    board(t, 8, REN, "stand", mid_sides())
    t.ev("ws.stand", by=REN, player=REN)
    t.draw_phase()
    t.clock_phase("Marianne")
    t.phase("main")
    t.play("C3", "Margery Daw", 1, 6000, cost=1)
    t.swap("C2", "B2")
    t.phase("climax")
    t.climax("Blazing Hair")
    for slot in ("C1", "C2", "C3"):
        t.modify(REN, slot, power=1000, soul=1)
    t.phase("attack")
    c_pool_attack(t)
    c_shot_attack(t)
    c_choice_attack(t)
    t.step("declare")
    t.step("encore")
    t.retire(REN, "C1")
    t.encore(REN, "C1")
    t.retire(REN, "C2")
    t.discard(REN, 1, "cost")
    t.encore(REN, "C2", via="ability", stock=0)
    end_phase_with_auto(t, "c-pheles", "Pheles")
    c_aoi_turn(t)


def c_pool_attack(t: Table) -> None:
    """A front attack into a counter that wins; the damage is cancelled."""
    t.declare("C1", "front")
    if t.bug == "trigger-to-waiting":
        t.expect_at("WS-ATK-006", t.trigger(icons=("pool",), climax=True, to="waiting"))
    else:
        t.trigger(icons=("pool",), climax=True)
    t.move(REN, "deck", "stock")
    t.step("counter")
    t.counter("Backup Last Order", 2000, 1)
    t.step("damage")
    t.damage(climax_at=0)
    t.step("battle")
    t.battle()


def c_shot_attack(t: Table) -> None:
    """A side attack (soul 2 − level 1) cancelled, then the shot's 1 damage sticks."""
    t.declare("C3", "side")
    t.side_level = t.defender().level
    t.trigger(icons=("shot",), climax=True)
    t.step("damage")
    if t.bug == "side-no-penalty":
        t.side_level = 0
        t.expect_at("WS-DMG-003", t.damage(climax_at=0))
        t.damage(amount=1, source="shot")
    elif t.bug == "shot-without-cancel":
        t.damage()
        t.expect_at("WS-DMG-006", t.damage(amount=1, source="shot"))
    else:
        t.damage(climax_at=0)
        t.damage(amount=1, source="shot")


def c_choice_attack(t: Table) -> None:
    """Aoi levels up from this damage while ren's AUTO waits: the level-up comes first."""
    t.declare("C2", "front")
    t.trigger(icons=("choice",), climax=True)
    t.move(REN, "waiting", "hand", card="Yuji Sakai")
    t.step("counter")
    t.step("damage")
    t.hold_levelup = True
    t.damage()
    t.hold_levelup = False
    t.auto(REN, "c-kazumi", "Kazumi Yoshida", "このカードのアタックでダメージを与えた時、1枚引く")
    t.check()
    if t.bug == "ability-before-level-up":
        t.expect_at("WS-CHK-001", t.resolve(REN, "c-kazumi"))
        t.draw(REN, 1, "effect")
        t.level_up_if_due(AOI)
    else:
        t.level_up_if_due(AOI)
        t.resolve(REN, "c-kazumi")
        t.draw(REN, 1, "effect")
    t.check_end()
    t.step("battle")
    t.battle()


def c_aoi_turn(t: Table) -> None:
    """Turn 9, aoi: AUTOs at the turn's and the attack phase's start, a burn event, a gate, a standby."""
    t.turn(AOI)
    t.phase("stand")
    t.auto(AOI, "c9-mikoto", "Mikoto Misaka", "あなたのターンの始めに、このカードのパワーを+1000")
    t.check()
    t.resolve(AOI, "c9-mikoto")
    t.modify(AOI, "C1", power=1000)
    t.check_end()
    for c in t.sides[AOI].stage.values():
        c.state = "stand"
    t.ev("ws.stand", by=AOI, player=AOI)
    t.draw_phase()
    t.clock_phase("Kinuho Wannai")
    t.phase("main")
    t.play("C1", "Accelerator", 1, 7500, cost=1)
    t.act("B1", "【起】［(1) このカードをレスト］ 1枚引く", 1, True)
    t.draw(AOI, 1, "effect")
    t.event_card("Level 5 Judge", 0)
    if t.bug == "burn-climax-not-cancelled":
        cards = [{"card": "CX Crimson Lotus", "climax": True}]
        t.expect_at("WS-DMG-005", t.ev("ws.damage", by=AOI, player=REN, amount=1, cards=cards, source="effect"))
        t.sides[REN].clock.append("CX Crimson Lotus")
        t.sides[REN].deck -= 1
        t.level_up_if_due(REN)
    else:
        t.damage(amount=1, source="effect", target=REN, climax_at=0)
    t.move(AOI, "resolution", "waiting", card="Level 5 Judge")
    t.swap("C3", "B2")
    t.phase("climax")
    t.phase("attack")
    t.step("declare")
    t.auto(REN, "c9-wilhelmina", "Wilhelmina", "相手のアタックフェイズの始めに、あなたは1枚引く")
    t.check()
    t.resolve(REN, "c9-wilhelmina")
    t.draw(REN, 1, "effect")
    t.check_end()
    t.ev("ws.attack", by=AOI, player=AOI, slot="C1", kind="front")
    t.sides[AOI].stage["C1"].state = "rest"
    t.attack_kind, t.attack_slot, t.trigger_soul, t.counter_power = "front", "C1", 0, 0
    t.trigger(icons=("gate",), climax=True)
    t.move(AOI, "waiting", "hand", card="Touma Kamijou")
    t.step("counter")
    t.step("damage")
    t.damage()
    t.step("battle")
    t.battle()
    if t.sides[REN].stage["C1"].state == "reverse":
        t.auto(
            REN, "c9-shana", "Shana", "このカードがリバースした時、このカードとバトルしているキャラをリバースしてよい"
        )
        t.check()
        t.resolve(REN, "c9-shana")
        t.reverse(AOI, "C1")
        t.check_end()
    t.declare("C2", "front")
    if "B1" not in t.sides[REN].stage and "C2" in t.sides[REN].stage:
        t.auto(
            REN,
            "c9-step",
            t.sides[REN].stage["C2"].card,
            "このカードがフロントアタックされた時、後列の空いている枠に動かしてよい",
        )
        t.check()
        t.resolve(REN, "c9-step")
        t.swap("C2", "B1", player=REN, effect=True)
        t.check_end()
    t.trigger(icons=("standby",), climax=True)
    t.move(AOI, "waiting", "stage", slot="B2", card="Ruiko Saten")
    t.sides[AOI].stage["B2"] = Chara("Ruiko Saten", 1, 5000, 1, REST)
    t.step("counter")
    t.step("damage")
    t.damage()
    t.step("battle")
    if t.defender() is not None:
        t.battle()
    t.encore_step({(REN, "C1"): {}} if t.sides[REN].stock >= 3 else {})
    if t.bug == "hand-limit-kept":
        t.phase("end")
        t.expect_at("WS-END-001", t.phase_end("end"))
    else:
        t.end_phase()

"""The room's route with no broker at all (issue 51: connection codes), in real Chromium
inside the test's network namespace (scripts/netns_run):

the host's broker refuses every connection, so the room can't form the usual way; the
failure dialog's way out, ``codes-open``, gives one offer per free seat (``codes-offer``,
``data-seat``); a friend opens that link and gets an answer code (``codes-answer``) without
ever asking the broker anything; the host pastes the friend's whole chat message into
``codes-paste``, the friend sits and the match is dealt to them. What is pasted wrong is
refused with why and kept in the field; an answer used twice is refused; the data channel
has the PeerJS route's limits (a message past the size cap is dropped, a flood cuts the
connection) and the friend is told that only a new code connects again.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

from harness import new_context, wait_ready, watch
from test_a11y import assert_accessible
from test_friends import dealt
from test_friends_failure import clean_but_the_broker, free_port, page_at

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
OFFER = 'dialog[open] [data-testid="codes-offer"]'
# a guest's raw channel to its host (to send what sxmjNet.send would refuse)
CONNECTION = "sxmjNet._connection(location.hash.split('room=')[1].split('&')[0])"


def test_a_room_forms_by_codes_with_no_broker(browser, browser_context_args, site_url,
                                              broker, artifacts):
    dead = f"http://127.0.0.1:{free_port()}/sxmj-broker"
    context, host, hw = page_at(browser, browser_context_args, site_url,
                                f"index.html?seed=3&broker={quote(dead, safe='')}&ice=none"
                                "&timescale=0.1&lang=en", dead)
    guest_context = new_context(browser, site_url, **{**browser_context_args, **PHONE})
    try:
        host.click('[data-testid="friends-create"]')
        host.wait_for_selector('dialog[open] [data-testid="friends-error"]', timeout=15000)
        host.click('dialog[open] [data-testid="codes-open"]')
        host.wait_for_selector(f'{OFFER}[data-seat="3"]', timeout=15000)
        assert host.locator(OFFER).count() == 3  # one per free seat
        assert host.locator('dialog[open] [data-testid="friends-start"]').is_visible()
        assert host.locator('[data-testid="friends-link"]').count() == 0  # no broker's invite
        link = host.locator(f'{OFFER}[data-seat="2"]').input_value()
        code = link.split("&offer=")[1].split("&")[0]
        assert len(code) <= 500 and "seat=2" in link, link
        host.screenshot(path=str(artifacts / "friends-codes-host-desktop-en.png"))
        assert_accessible(host, "the host's connection codes")

        # the friend opens the code: an answer, and not one request to the broker
        guest = guest_context.new_page()
        gw = watch(guest, site_url)
        sockets: list[str] = []
        guest.on("websocket", lambda ws: sockets.append(ws.url))
        guest.goto(site_url + link.split("/sxmj/", 1)[1])
        wait_ready(guest, gw)
        answer_box = guest.locator('dialog[open] [data-testid="codes-answer"]')
        answer_box.wait_for(timeout=15000)
        answer = answer_box.input_value()
        assert answer.startswith("SXMJ1.") and len(answer) <= 500
        assert "offer=" not in guest.evaluate("location.hash")  # spent: a reload won't reuse it
        guest.screenshot(path=str(artifacts / "friends-codes-answer-phone-zh.png"))
        assert_accessible(guest, "a friend's answer code (phone)")

        # what isn't an answer is refused with why, and stays in the field to mend
        paste = host.locator('dialog[open] [data-testid="codes-paste"]')
        wrong = "房主你好，这是我的码：" + link  # the offer sent back by mistake
        paste.fill(wrong)
        host.click('dialog[open] [data-testid="codes-connect"]')
        error = host.locator('dialog[open] [data-testid="codes-error"]')
        error.wait_for(timeout=5000)
        assert "SXMJ1." in error.inner_text()
        assert host.locator('dialog[open] [data-testid="codes-paste"]').input_value() == wrong
        damaged = answer[:-6] + "!!" + answer[-4:]
        paste.fill(f"here: {damaged}")
        host.click('dialog[open] [data-testid="codes-connect"]')
        host.wait_for_function("document.querySelector('[data-testid=codes-error]')"
                               "?.textContent.includes('whole')", timeout=5000)

        # the friend's whole chat message: it connects as soon as it is pasted
        paste.fill(f"ok, here it is: {answer} see you")
        host.wait_for_selector('dialog[open] [data-testid="codes-note"]', timeout=5000)
        first = guest.locator('dialog[open] [data-testid="friends-seat"]').first
        first.wait_for(timeout=15000)
        assert first.get_attribute("data-seat") == "2"  # the code's seat comes first
        guest.fill('[data-testid="friends-name"]', "Mei")
        first.click()
        host.wait_for_selector('dialog[open] [data-testid="friends-row"][data-seat="2"]'
                               '[data-kind="guest"]', timeout=15000)
        host.wait_for_selector('dialog[open] [data-testid="friends-path"][data-seat="2"]'
                               '[data-path="direct"]', timeout=15000)
        assert host.locator(f'{OFFER}[data-seat="2"]').count() == 0  # taken: no code for it
        assert host.locator(OFFER).count() == 2

        # the same answer again: that offer is spent
        host.locator('dialog[open] [data-testid="codes-paste"]').fill(answer)
        host.wait_for_function("document.querySelector('[data-testid=codes-error]')"
                               "?.textContent.includes('newest')", timeout=5000)

        host.click('dialog[open] [data-testid="friends-start"]')
        dealt(guest)

        # the channel's limits are the PeerJS route's: past the cap a message is dropped...
        with host.expect_console_message(lambda m: "dropped a message of" in m.text):
            guest.evaluate(f"() => {CONNECTION}.send('x'.repeat(200 * 1024))")
        assert guest.evaluate("sxmjNet.peers().length") == 1  # ...and the channel stays
        # ...and a flood cuts the connection: the friend is told only a new code connects
        guest.evaluate(f"""() => {{
            const conn = {CONNECTION};
            for (let i = 0; i < 400; i++) conn.send('{{"t":"ready","hand":1}}');
        }}""")
        guest.wait_for_selector('dialog[open] [data-testid="friends-status"]', timeout=15000)
        assert "连接码" in guest.locator('dialog[open] [data-testid="friends-status"]').inner_text()

        # the host brings them back: 连接码 at the table, a code for their seat (with its
        # token: a chat's link opens in a new browser, without the old tab's storage)
        host.click('[data-testid="codes-open"]')
        back = host.locator('dialog[open] [data-testid="codes-dialog"] '
                            '[data-testid="codes-offer"][data-seat="2"]')
        back.wait_for(timeout=15000)
        link = back.input_value()
        assert "&token=" in link
        again = new_context(browser, site_url, **{**browser_context_args, **PHONE}).new_page()
        aw = watch(again, site_url)
        again.goto(site_url + link.split("/sxmj/", 1)[1])
        wait_ready(again, aw)
        answer_box = again.locator('dialog[open] [data-testid="codes-answer"]')
        answer_box.wait_for(timeout=15000)
        host.locator('dialog[open] [data-testid="codes-paste"]').fill(answer_box.input_value())
        dealt(again)  # back in the seat, with the hand
        host.wait_for_function("() => !document.querySelector('[data-testid=\"codes-open\"]')",
                               timeout=15000)  # nobody is away: no code to make
        aw.assert_clean()
        again.context.close()

        broker_host = urlsplit(dead).netloc
        assert not [u for u in gw.requests + sockets if urlsplit(u).netloc == broker_host]
        assert "peerjs" not in " ".join(gw.requests)  # PeerJS itself is never loaded
        gw.assert_clean()
        clean_but_the_broker(hw, dead)
    finally:
        guest_context.close()
        context.close()

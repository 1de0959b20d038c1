#!/usr/bin/env python3
"""The web pages of `accounts serve` in a real browser (headless Chromium through Selenium).

Drives the apps' whole flow against a live server: a guest at start -> sign-up breaking each
rule once (the submit button's state checked each time when scripts run) -> a taken ID ->
welcome -> logout -> a plain login that does not survive a browser restart -> a remembered
login that does (same profile) -> change password -> withdraw -> start shows a guest. Runs it
with JavaScript, without JavaScript, and in Korean; checks every page with axe-core (no
serious or critical violation), that it fits a phone (390x844) and a desktop window, and that
the login form works with the keyboard alone. Optionally saves phone-size screenshots.

Usage: flow.py --base http://127.0.0.1:PORT [--screenshots DIR] [--variants en-js,en-nojs,ko-js]
Exit status 1 with a list of what failed.
"""
import argparse
import email
import email.policy
import json
import mailbox
import os
import re
import time
import shutil
import sys
import tempfile
import traceback
import urllib.error
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import axe_core_python.base as axe_base

PHONE = (390, 844)
DESKTOP = (1280, 800)
STRONG = "Tangerine-Kayak-42"
NEW_STRONG = "Walrus-Harbor-Lantern-7"

# A distinctive part of each rule's message, per language (the server's own words).
EXPECT = {
    "en": {
        "missingAt": "must contain one '@'",
        "uppercase": "must not contain uppercase",
        "localTooShort": "at least 6 characters",
        "pwTooShort": "password must be at least 8",
        "weak": "too easy to guess",
        "containsEmail": "must not contain the part of the email",
        "containsNickname": "must not contain the nickname",
        "mismatch": "does not match",
        "nickTooShort": "nickname must be at least 2",
        "taken": "already registered",
        "wrongCurrent": "current password is incorrect",
        "wrongPassword": "password is incorrect",
        "confirmWithdraw": "Tick the box",
        "welcome": "Welcome, {nick}.",
        "start": "Welcome to AccountStore",
        "loggedOut": "You are logged out.",
        "withdrawn": "Your account was deleted.",
        "passwordChanged": "Your password was changed",
        "sessions": "Where you are signed in",
        "thisDevice": "(this device)",
        "signOutDevice": "Sign out this device",
        "deviceSignedOut": "That device was signed out.",
        "forgot": "Forgot your password?",
        "mailSent": "If an account uses",
    },
    "ko": {
        "missingAt": "'@'가 하나 있어야",
        "uppercase": "대문자를 쓸 수 없습니다",
        "localTooShort": "6",
        "pwTooShort": "8자 이상",
        "weak": "추측하기 쉽습니다",
        "containsEmail": "아이디(@ 앞부분)를 포함할 수 없습니다",
        "containsNickname": "닉네임을 포함할 수 없습니다",
        "mismatch": "일치하지 않습니다",
        "nickTooShort": "닉네임은 2자 이상",
        "taken": "이미 사용 중인",
        "wrongCurrent": "현재 비밀번호가 올바르지 않습니다",
        "wrongPassword": "비밀번호가 올바르지 않습니다",
        "confirmWithdraw": "확인란을 선택하세요",
        "welcome": "{nick} 님 환영합니다.",
        "start": "AccountStore에 오신 것을 환영합니다",
        "loggedOut": "로그아웃했습니다.",
        "withdrawn": "탈퇴했습니다.",
        "passwordChanged": "비밀번호를 변경했습니다.",
        "sessions": "로그인된 기기",
        "thisDevice": "(이 기기)",
        "signOutDevice": "이 기기 로그아웃",
        "deviceSignedOut": "그 기기를 로그아웃했습니다.",
        "forgot": "비밀번호를 잊으셨나요?",
        "mailSent": "쓰는 계정이 있으면",
    },
}


class Failures(Exception):
    pass


class Browser:
    """One Chromium with its own profile folder, so a restart keeps what a real one keeps."""

    def __init__(self, base, language, javascript, profile):
        self.base = base
        self.language = language
        self.javascript = javascript
        self.profile = profile
        self.driver = None

    def start(self):
        options = Options()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--user-data-dir={self.profile}", f"--window-size={PHONE[0]},{PHONE[1]}",
                         "--force-device-scale-factor=1", "--hide-scrollbars", f"--lang={self.language}"]:
            options.add_argument(argument)
        prefs = {"intl.accept_languages": "ko-KR,ko" if self.language == "ko" else "en-US,en",
                 "credentials_enable_service": False, "profile.password_manager_enabled": False}
        if not self.javascript:
            prefs["profile.managed_default_content_settings.javascript"] = 2
        options.add_experimental_option("prefs", prefs)
        service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
        self.driver = webdriver.Chrome(options=options, service=service)
        self.viewport(*PHONE, mobile=True)

    def viewport(self, width, height, mobile):
        """The page's viewport exactly (the window's own size leaves out its frame)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def restart(self):
        """Closes the browser as a person would and opens it again on the same profile."""
        self.driver.quit()
        self.start()

    def quit(self):
        if self.driver:
            self.driver.quit()
            self.driver = None

    # -- pages -----------------------------------------------------------------
    def go(self, path):
        self.driver.get(self.base + path)
        self.settle()

    @property
    def path(self):
        return "/" + self.driver.current_url.split("/", 3)[3].split("?")[0]

    def heading(self):
        return self.driver.find_element(By.TAG_NAME, "h1").text

    def page_text(self):
        return self.driver.find_element(By.TAG_NAME, "main").text

    def settle(self):
        """Waits until the live check (if any) has answered."""
        if not self.javascript:
            return
        try:
            WebDriverWait(self.driver, 10).until(lambda d: all(
                form.get_attribute("aria-busy") != "true"
                for form in d.find_elements(By.CSS_SELECTOR, "form[data-live]")))
        except TimeoutException:
            raise Failures(f"{self.path}: the live check never answered")

    # -- forms -----------------------------------------------------------------
    def fill(self, values):
        for name, value in values.items():
            field = self.driver.find_element(By.ID, name)
            if field.get_attribute("value"):
                field.send_keys(Keys.CONTROL, "a")
                field.send_keys(Keys.DELETE)
            if value:
                field.send_keys(value)
        self.settle()

    def tick(self, name, on=True):
        box = self.driver.find_element(By.ID, name)
        if box.is_selected() != on:
            box.click()
        self.settle()

    def value(self, name):
        return self.driver.find_element(By.ID, name).get_attribute("value")

    def errors(self, name):
        return [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, f"#{name}-error li")]

    def form_error(self):
        found = self.driver.find_elements(By.ID, "form-error")
        return found[0].text if found else ""

    def button(self):
        return self.driver.find_element(By.CSS_SELECTOR, "main form[data-live] button[type=submit]")

    def submit(self):
        old = self.driver.find_element(By.TAG_NAME, "html")
        self.button().click()
        WebDriverWait(self.driver, 15).until(lambda d: is_stale(old))
        self.settle()

    def click_button(self, label, within=None):
        """Clicks the one button labelled `label` (in the list item that says `within`)."""
        old = self.driver.find_element(By.TAG_NAME, "html")
        scope = "main li" if within else "main"
        items = [item for item in self.driver.find_elements(By.CSS_SELECTOR, scope) if within is None or within in item.text]
        [button] = [b for item in items for b in item.find_elements(By.CSS_SELECTOR, "button") if b.text == label]
        button.click()
        WebDriverWait(self.driver, 15).until(lambda d: is_stale(old))
        self.settle()

    def click_link(self, label):
        old = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.LINK_TEXT, label).click()
        WebDriverWait(self.driver, 15).until(lambda d: is_stale(old))
        self.settle()


def press(driver, key):
    """A key press sent to whatever has the focus, as a keyboard would."""
    ActionChains(driver).send_keys(key).perform()


def tab_to_button(driver):
    for _ in range(12):
        press(driver, Keys.TAB)
        if driver.switch_to.active_element.tag_name == "button":
            return True
    return False


def is_stale(element):
    try:
        element.tag_name
        return False
    except Exception:
        return True


class Flow:
    """One run of the whole flow in one language, with or without JavaScript."""

    def __init__(self, base, language, javascript, screenshots, workdir, account_suffix):
        self.base = base
        self.language = language
        self.javascript = javascript
        self.screenshots = screenshots
        self.expect = EXPECT[language]
        self.name = f"{language}-{'js' if javascript else 'nojs'}"
        self.problems = []
        self.checks = 0
        self.user = f"minsu{account_suffix}"
        self.nick = "민수" if language == "ko" else "Minsu"
        self.email = f"{self.user}@example.com"
        self.taken = f"taken{account_suffix}@example.com"
        self.browser = Browser(base, language, javascript, workdir / self.name)

    # -- checking ---------------------------------------------------------------
    def check(self, condition, what):
        self.checks += 1
        if not condition:
            self.problems.append(f"{self.name} {self.browser.path}: {what}")

    def contains(self, texts, key, what):
        needle = self.expect[key]
        found = any(needle in text for text in texts)
        # The page's own error (a limit reached, a busy store) says why a field has none.
        self.check(found, f"{what}: expected {needle!r} in {texts!r}" + ("" if found else f"; page error: {self.browser.form_error()!r}"))

    def page_checks(self, page):
        """axe-core, the phone fit, and (once) the desktop window, on the current page."""
        driver = self.browser.driver
        fits = "return document.documentElement.scrollWidth <= window.innerWidth"
        self.check(driver.execute_script(fits), f"{page}: wider than a phone's screen")
        if self.name == "en-js":
            self.browser.viewport(*DESKTOP, mobile=False)
            self.check(driver.execute_script(fits), f"{page}: wider than a desktop window")
            self.check(driver.execute_script("return document.querySelector('main').getBoundingClientRect().width <= 640"),
                       f"{page}: the column stretches across a desktop window")
            self.browser.viewport(*PHONE, mobile=True)
        self.check(driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == self.language,
                   f"{page}: html lang is not {self.language}")
        if self.javascript:
            driver.execute_script(axe_base.AXE_SCRIPT)
            result = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "axe.run(document).then(r => done(JSON.stringify(r.violations)), e => done(JSON.stringify([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}])));")
            for violation in json.loads(result):
                if violation.get("impact") in ("serious", "critical"):
                    targets = [node.get("target") for node in violation.get("nodes", [])][:3]
                    self.check(False, f"{page}: axe {violation['impact']} {violation['id']}: {violation['help']} at {targets}")
                else:
                    self.checks += 1
            if self.screenshots and page in SCREENSHOT_PAGES:
                self.screenshots.mkdir(parents=True, exist_ok=True)
                driver.save_screenshot(str(self.screenshots / f"{self.language}-{page}.png"))

    def button_disabled(self, disabled, what):
        if self.javascript:
            self.check(self.browser.button().get_attribute("disabled") is not None if disabled
                       else self.browser.button().get_attribute("disabled") is None,
                       f"{what}: the submit button should be {'disabled' if disabled else 'enabled'}")

    def stale_answer_waits(self):
        """A live check's answer that comes after a newer change must not settle the form: the
        page's own fetch is held so the older answer lands while the newer check is still to
        come (a CI run once saw a valid form's button disabled when this raced)."""
        if not self.javascript:
            return
        busy = self.browser.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const form = document.querySelector("main form[data-live]");
            const field = form.elements["nickname"];
            const realFetch = window.fetch;
            const held = [];
            window.fetch = (url, options) => realFetch(url, options).then(
                response => new Promise(resolve => held.push(() => resolve(response))));
            const type = value => {
                field.value = value;
                field.dispatchEvent(new Event("input", { bubbles: true }));
            };
            const original = field.value;
            type(original + "x");
            const answerOlder = () => {
                if (held.length === 0) { setTimeout(answerOlder, 10); return; }
                type(original);  // the newer change: its check waits out the 150 ms pause
                held.shift()();  // the older check answers meanwhile
                setTimeout(() => { window.fetch = realFetch; done(form.getAttribute("aria-busy")); }, 50);
            };
            answerOlder();""")
        self.check(busy == "true", f"an older check's answer settled a form changed since (aria-busy {busy!r})")
        self.browser.settle()

    # -- the flow -----------------------------------------------------------------
    def run(self):
        b = self.browser
        api_signup(self.base, self.taken, "Taken", STRONG)
        b.start()
        try:
            self.start_as_guest()
            self.sign_up()
            self.logout()
            self.plain_login_ends_with_browser()
            self.remembered_login_survives()
            self.signed_in_elsewhere()
            self.change_password()
            self.forgot_password()
            self.withdraw()
        except Failures as failure:
            self.problems.append(f"{self.name}: {failure}")
        except Exception as error:  # a missing element is a failed check, shown with where
            step = next((f"{frame.name}:{frame.lineno}" for frame in reversed(traceback.extract_tb(error.__traceback__))
                         if frame.filename == __file__ and frame.name not in ("submit", "settle", "fill")), "?")
            self.problems.append(f"{self.name} {b.path if b.driver else ''} in {step}: {type(error).__name__}: "
                                 f"{str(error).splitlines()[0] if str(error) else ''}")
        finally:
            b.quit()
        return self.problems

    def start_as_guest(self):
        b = self.browser
        b.go("/")
        self.check(b.path == "/", "a guest stays at start")
        self.check(b.heading() == self.expect["start"], f"start heading is {b.heading()!r}")
        self.check(len(b.driver.find_elements(By.CSS_SELECTOR, "a[href='/signup']")) >= 1, "start links to sign-up")
        self.check(len(b.driver.find_elements(By.CSS_SELECTOR, "a[href='/login']")) >= 1, "start links to login")
        self.page_checks("start")
        if self.language == "en" and self.javascript:
            self.switch_language()

    def switch_language(self):
        b = self.browser
        b.click_link("한국어")
        self.check(b.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ko", "the switch shows Korean")
        self.check(b.heading() == EXPECT["ko"]["start"], "the Korean start heading")
        b.click_link("English")
        self.check(b.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en", "the switch back to English")

    def sign_up(self):
        b = self.browser
        b.go("/signup")
        self.button_disabled(True, "an empty sign-up form")
        if self.javascript and self.language == "en":
            self.tab_order(["email", "nickname", "password", "confirmation", "remember"], "signup")
        self.page_checks("signup-empty")
        valid = {"email": self.email, "password": STRONG, "confirmation": STRONG, "nickname": self.nick}
        breaks = [
            ("email", {"email": "Minsu"}, ["missingAt"]),
            ("email", {"email": "Minsu@example.com"}, ["uppercase", "localTooShort"]),
            ("email", {"email": "ab@example.com"}, ["localTooShort"]),
            ("password", {"password": "Tq9!x", "confirmation": "Tq9!x"}, ["pwTooShort"]),
            ("password", {"password": "password123", "confirmation": "password123"}, ["weak"]),
            ("password", {"password": f"{self.user}-Kayak-Tangerine", "confirmation": f"{self.user}-Kayak-Tangerine"},
             ["containsEmail"]),
            ("password", {"password": f"Kayak-{self.nick}-Tangerine", "confirmation": f"Kayak-{self.nick}-Tangerine"},
             ["containsNickname"]),
            ("confirmation", {"confirmation": STRONG + "x"}, ["mismatch"]),
            ("nickname", {"nickname": "k"}, ["nickTooShort"]),
        ]
        for field, override, rules in breaks:
            values = dict(valid, **override)
            # The nickname first: the password's rule about it needs it.
            b.fill({"nickname": values["nickname"], "email": values["email"], "password": values["password"],
                    "confirmation": values["confirmation"]})
            if self.javascript:
                self.button_disabled(True, f"{field} breaking {rules}")
            else:
                b.submit()
                self.check(b.path == "/signup", f"{field} breaking {rules} stays on the form")
            for rule in rules:
                self.contains(b.errors(field), rule, f"{field} breaking {rule}, next to the field")
            self.check(b.driver.find_element(By.ID, field).get_attribute("aria-invalid") == "true",
                       f"{field} breaking {rules} is marked invalid")
            if field == "confirmation" and self.javascript:
                self.page_checks("signup")
        # Every field valid: the button is enabled; a taken ID is found on submit.
        b.fill({"nickname": self.nick, "email": self.taken, "password": STRONG, "confirmation": STRONG})
        self.button_disabled(False, "a complete, valid form")
        if self.javascript:
            for field in ("email", "password", "confirmation", "nickname"):
                self.check(b.errors(field) == [], f"{field} shows no error once valid: {b.errors(field)}")
        b.submit()
        self.check(b.path == "/signup", "a taken ID stays on the form")
        self.contains(b.errors("email"), "taken", "the taken ID, next to the ID field")
        self.check(b.value("nickname") == self.nick, "the nickname is kept after a taken ID")
        self.check(b.value("password") == "" and b.value("confirmation") == "",
                   "no password is written back into the page after a taken ID")
        self.check(STRONG not in b.driver.page_source, "the page's source holds no password")
        self.page_checks("signup-taken")
        self.stale_answer_waits()
        b.fill({"email": self.email, "password": STRONG, "confirmation": STRONG})
        self.button_disabled(False, "a new ID")
        b.submit()
        self.check(b.path == "/welcome", f"a sign-up goes to welcome (at {b.path})")
        self.check(b.heading() == self.expect["welcome"].format(nick=self.nick), f"welcome heading {b.heading()!r}")
        # The browser keeps the device cookie that makes it a known device for this account.
        device = b.driver.get_cookie("accounts_device") or {}
        self.check(device.get("httpOnly") is True and device.get("sameSite") == "Strict",
                   f"the device cookie is kept, HttpOnly and SameSite=Strict: {sorted(device)}")
        self.page_checks("welcome")

    def logout(self):
        b = self.browser
        if self.javascript and self.language == "en":
            self.keyboard_logout()
        else:
            b.click_button("로그아웃" if self.language == "ko" else "Log out")
        self.check(b.path == "/", "logout goes to start")
        self.check(self.expect["loggedOut"] in b.page_text(), "start says the logout")
        b.go("/welcome")
        self.check(b.path == "/", "after logout, welcome sends the guest to start")

    def login(self, password, remember, keyboard=False):
        b = self.browser
        b.go("/login")
        self.page_checks("login")
        if keyboard:
            self.keyboard_login(password, remember)
            return
        b.fill({"email": self.email, "password": password})
        if remember:
            b.tick("remember")
        b.submit()

    def keyboard_login(self, password, remember):
        """The login form with the keyboard alone: Tab to each control, type, Space, Enter."""
        b = self.browser
        driver = b.driver

        def tab_to(element_id):
            for _ in range(12):
                press(driver, Keys.TAB)
                if driver.switch_to.active_element.get_attribute("id") == element_id:
                    return True
            return False

        self.check(tab_to("email"), "Tab reaches the ID field")
        driver.switch_to.active_element.send_keys(self.email)
        self.check(tab_to("password"), "Tab reaches the password field")
        driver.switch_to.active_element.send_keys(password)
        if remember:
            self.check(tab_to("remember"), "Tab reaches remember me")
            driver.switch_to.active_element.send_keys(Keys.SPACE)
        b.settle()
        old = driver.find_element(By.TAG_NAME, "html")
        self.check(tab_to_button(driver), "Tab reaches the submit button")
        press(driver, Keys.ENTER)
        WebDriverWait(driver, 15).until(lambda d: is_stale(old))
        b.settle()

    def tab_order(self, expected, page):
        """From a freshly loaded page, Tab visits the form's controls in reading order."""
        driver = self.browser.driver
        seen = []
        for _ in range(len(expected) + 6):
            press(driver, Keys.TAB)
            ident = driver.switch_to.active_element.get_attribute("id")
            if ident in expected and ident not in seen:
                seen.append(ident)
        self.check(seen == expected, f"{page}: Tab visits {seen}, expected {expected}")

    def keyboard_logout(self):
        """Tab to the logout button on a fresh welcome page and press Enter."""
        b = self.browser
        b.go("/welcome")
        old = b.driver.find_element(By.TAG_NAME, "html")
        self.check(tab_to_button(b.driver), "Tab reaches the logout button")
        press(b.driver, Keys.ENTER)
        WebDriverWait(b.driver, 15).until(lambda d: is_stale(old))
        b.settle()

    def plain_login_ends_with_browser(self):
        b = self.browser
        self.login(STRONG, remember=False)
        self.check(b.path == "/welcome", f"a login goes to welcome (at {b.path})")
        b.restart()
        b.go("/")
        self.check(b.path == "/", "a plain login does not survive closing the browser")

    def remembered_login_survives(self):
        b = self.browser
        self.login(STRONG, remember=True, keyboard=self.javascript and self.language == "en")
        self.check(b.path == "/welcome", f"a remembered login goes to welcome (at {b.path})")
        b.restart()
        b.go("/")
        self.check(b.path == "/welcome", f"a remembered login survives a browser restart (at {b.path})")
        self.check(b.heading() == self.expect["welcome"].format(nick=self.nick), "still welcome after the restart")

    def signed_in_elsewhere(self):
        """The list of where the account is signed in: this browser and a phone app; the phone
        is signed out from the page, and its token stops working."""
        b = self.browser
        phone = api_login_token(self.base, self.email, STRONG, device="내 휴대폰 📱")
        b.go("/welcome")
        b.click_link(self.expect["sessions"])
        self.check(b.path == "/sessions", "welcome links to where you are signed in")
        self.check(b.heading() == self.expect["sessions"], f"sessions heading {b.heading()!r}")
        self.check("내 휴대폰 📱" in b.page_text(), "the phone is listed by its name")
        self.check(self.expect["thisDevice"] in b.page_text(), "this browser is marked")
        self.page_checks("sessions")
        # Earlier sessions of this browser (the plain login a restart forgot) are listed too.
        b.click_button(self.expect["signOutDevice"], within="내 휴대폰 📱")
        self.check(self.expect["deviceSignedOut"] in b.page_text(), "the page says the device was signed out")
        self.check("내 휴대폰 📱" not in b.page_text(), "the phone is no longer listed")
        self.check(api_me(self.base, phone) == 401, "the phone's token no longer works")
        b.go("/welcome")

    def change_password(self):
        b = self.browser
        b.click_link("비밀번호 변경" if self.language == "ko" else "Change password")
        self.check(b.path == "/password", "welcome links to change password")
        self.page_checks("password")
        b.fill({"current": "Not-The-Password-9", "new": NEW_STRONG, "confirmation": NEW_STRONG})
        self.button_disabled(False, "a complete change-password form")
        b.submit()
        self.contains(b.errors("current"), "wrongCurrent", "a wrong current password, next to its field")
        b.fill({"current": STRONG, "new": NEW_STRONG, "confirmation": NEW_STRONG})
        b.submit()
        self.check(b.path == "/welcome", f"a changed password goes back to welcome (at {b.path})")
        self.check(self.expect["passwordChanged"] in b.page_text(), "welcome says the password changed")
        self.check(api_login(self.base, self.email, STRONG) == 401, "the old password no longer logs in")

    def forgot_password(self):
        """Logged out, the password "forgotten": the login page's link, the mail a real relay
        took (MAILDIR), its link, a new password, and the welcome screen signed in."""
        b = self.browser
        maildir = os.environ.get("MAILDIR")
        if not maildir:
            self.check(False, "no MAILDIR: the browser check runs with a relay")
            return
        self.logout()
        b.go("/login")
        b.click_link(self.expect["forgot"])
        self.check(b.path == "/forgot-password", "the login page links to the forgotten password")
        self.page_checks("forgot")
        b.fill({"email": self.email})
        b.submit()
        self.check(self.expect["mailSent"] in b.page_text(), "the page says a mail is on its way")
        link = None
        deadline = time.time() + 20
        while link is None and time.time() < deadline:
            for message in mailbox.Maildir(maildir):
                parsed = email.message_from_bytes(message.as_bytes(), policy=email.policy.default)
                if parsed["To"] == self.email:
                    text = parsed.get_body(("plain",)).get_content()
                    found = re.search(r"(/reset-password\?code=[0-9a-f]{64})", text)
                    link = found.group(1) if found else None
            time.sleep(0.2)
        self.check(link is not None, "the reset mail arrived at the relay with its link")
        if link is None:
            return
        b.go(link)
        self.check(b.path == "/reset-password", "the link's code leaves the address bar")
        self.page_checks("reset")
        b.fill({"password": NEW_STRONG, "confirmation": NEW_STRONG})
        b.submit()
        self.check(b.path == "/welcome", f"a new password signs in at welcome (at {b.path})")
        self.check(api_login(self.base, self.email, NEW_STRONG) == 200, "the new password logs in")

    def withdraw(self):
        b = self.browser
        b.click_link("회원 탈퇴" if self.language == "ko" else "Withdraw")
        self.check(b.path == "/withdraw", "welcome links to withdrawal")
        self.page_checks("withdraw")
        b.fill({"password": NEW_STRONG})
        if self.javascript:
            self.button_disabled(True, "withdrawal without the confirmation ticked")
        else:
            b.submit()
            self.contains(b.errors("confirm"), "confirmWithdraw", "the unticked confirmation, next to it")
        b.fill({"password": "Not-The-Password-9"})
        b.tick("confirm")
        self.button_disabled(False, "withdrawal confirmed")
        b.submit()
        self.contains(b.errors("password"), "wrongPassword", "a wrong password, next to its field")
        b.fill({"password": NEW_STRONG})
        b.tick("confirm")
        b.submit()
        self.check(b.path == "/", f"withdrawal goes to start (at {b.path})")
        self.check(self.expect["withdrawn"] in b.page_text(), "start says the account was deleted")
        b.go("/")
        self.check(b.path == "/" and b.heading() == self.expect["start"], "start shows a guest after withdrawal")
        self.check(api_login(self.base, self.email, NEW_STRONG) == 401, "the withdrawn account no longer logs in")


SCREENSHOT_PAGES = {"start", "signup", "welcome", "login", "password", "withdraw"}


def api_signup(base, email, nickname, password):
    body = json.dumps({"email": email, "password": password, "nickname": nickname}).encode()
    request = urllib.request.Request(base + "/v1/signup", data=body, headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request).read()
    except urllib.error.HTTPError as error:
        if error.code != 409:
            raise


def api_login(base, email, password):
    body = json.dumps({"email": email, "password": password}).encode()
    request = urllib.request.Request(base + "/v1/login", data=body, headers={"Content-Type": "application/json"})
    try:
        return urllib.request.urlopen(request).status
    except urllib.error.HTTPError as error:
        return error.code


def api_login_token(base, email, password, device):
    body = json.dumps({"email": email, "password": password, "device": device}).encode()
    request = urllib.request.Request(base + "/v1/login", data=body, headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())["token"]


def api_me(base, token):
    request = urllib.request.Request(base + "/v1/me", headers={"Authorization": "Bearer " + token})
    try:
        return urllib.request.urlopen(request).status
    except urllib.error.HTTPError as error:
        return error.code


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--screenshots", type=Path)
    parser.add_argument("--variants", default=os.environ.get("BROWSER_VARIANTS", "en-js,en-nojs,ko-js"))
    arguments = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="accounts-browser-"))
    problems, checks = [], 0
    try:
        for index, variant in enumerate(arguments.variants.split(",")):
            language, mode = variant.split("-")
            flow = Flow(arguments.base, language, mode == "js", arguments.screenshots, workdir, f"{index}{language}")
            found = flow.run()
            checks += flow.checks
            print(f"{variant}: {flow.checks} checks, {len(found)} failed", flush=True)
            problems += found
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for problem in problems:
        print("FAIL " + problem)
    print(f"browser flow: {checks} checks, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""The patches scripts/build_vendor.py applies to the vendored PyScript (a frame refused
storage must still boot: e2e/test_third_party.py is the browser's side of it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import build_vendor  # noqa: E402

# @webreflection/idb-map as @pyscript/core 0.7.31 minifies it (IDBMap, then IDBMapSync)
IDB_MAP = (
    'class y extends EventTarget{#e;#t;#n;constructor(e,{durability:t=m.durability,prefix:n=m.'
    'prefix}=m){super(),this.#n=n,this.#t={durability:t},this.#e=new Promise((t,n)=>{p(indexedDB.'
    'open(`${this.#n}/${e}`),{onupgradeneeded({target:{result:e,transaction:n}}){e.objectStore'
    'Names.length||e.createObjectStore(f),n.oncomplete=()=>t(e)},onsuccess(e){t(_(e))},onerror(e)'
    '{n(e),this.dispatchEvent(e)}})}).then(e=>{const t=this.dispatchEvent.bind(this);for(const n '
    'in e)n.startsWith("on")&&(e[n]=t);return e})}dispatchEvent(e){return super.dispatchEvent(e)}}'
    'class h extends Map{#s;#o;constructor(...e){super(),this.#s=new y(...e),this.#o=this.#s.'
    'entries().then(e=>{for(const[t,n]of e)super.set(t,n)})}async close(){await this.#o,await '
    'this.#s.close()}async sync(){await this.#o}clear(){return this.#o=this.#o.then(()=>this.#s.'
    'clear()),super.clear()}delete(e){return this.#o=this.#o.then(()=>this.#s.delete(e)),super.'
    'delete(e)}set(e,t){return this.#o=this.#o.then(()=>this.#s.set(e,t)),super.set(e,t)}}'
)


def test_each_patch_changes_what_it_names_and_nothing_else():
    found: dict[str, int] = {}
    out = build_vendor.patch_text(IDB_MAP, build_vendor.PYSCRIPT_PATCHES, found)
    assert all(n == 1 for n in found.values()) and len(found) == 3
    assert "onerror(e){n(e)}" in out and "this.dispatchEvent(e)}})" not in out
    assert "return e}),this.#e.catch(()=>{})}dispatchEvent(" in out
    assert "super.set(t,n)}).catch(()=>{this.#s=null})" in out
    for method in ("close()", "clear()", "delete(e)", "set(e,t)"):
        assert f"this.#s?.{method}" in out
    again: dict[str, int] = {}
    assert build_vendor.patch_text(out, build_vendor.PYSCRIPT_PATCHES, again) == out
    assert not any(again.values()), "a patched file matches no patch again"


def test_a_patch_that_no_longer_matches_stops_the_build(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "core.js").write_text(IDB_MAP.replace("onerror(e){n(e),", "onerror(e){n(e);"))
    with pytest.raises(SystemExit, match="matched 0 times, not 3"):
        build_vendor.sync_folder([src / "core.js"], tmp_path / "out",
                                 build_vendor.PYSCRIPT_PATCHES)

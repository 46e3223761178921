from pathlib import Path

import pytest

from claimforge.cache import DiskCache, fingerprint
from claimforge.config import RecipeError, apply_overrides, load_recipe, pipeline_spec
from claimforge.registry import ComponentConfig, Registry, RegistryError, registry


def test_packaged_recipe_validates_against_the_pipeline_config() -> None:
    recipe = load_recipe("multi2claim")
    entry, cfg = registry.config("pipeline", pipeline_spec(recipe))
    assert entry.name == "multi2claim" and cfg.min_evidence_words == 50  # type: ignore[attr-defined]


def test_overrides_parse_yaml_scalars_and_nest() -> None:
    r = apply_overrides(
        {"pipeline": "x", "qa2d": {"name": "rules"}},
        ["seed=7", "balance=false", "qa2d.nlp.pipeline=en_core_web_sm", "labels=[SUPPORTED]"],
    )
    assert r["seed"] == 7 and r["balance"] is False
    assert r["qa2d"]["nlp"]["pipeline"] == "en_core_web_sm" and r["labels"] == ["SUPPORTED"]
    with pytest.raises(RecipeError):
        apply_overrides(r, ["novalue"])


def test_recipe_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("pipeline: [unclosed")
    with pytest.raises(RecipeError, match="bad.yaml"):
        load_recipe(str(bad))
    with pytest.raises(RecipeError, match="no recipe"):
        load_recipe("does-not-exist")


def test_registry_rejects_unknown_names_and_keys() -> None:
    reg = Registry()

    class Cfg(ComponentConfig):
        size: int = 1

    @reg.register("thing", "a", Cfg)
    def make(cfg: Cfg) -> int:
        """A thing."""
        return cfg.size * 2

    assert reg.build("thing", {"name": "a", "size": 3}) == 6
    assert reg.build("thing", "a") == 2
    with pytest.raises(RegistryError, match="known: a"):
        reg.build("thing", "b")
    with pytest.raises(RegistryError, match="bad config"):
        reg.build("thing", {"name": "a", "colour": "red"})
    # errors a person can act on: the close name, the key, no pydantic dump or link
    with pytest.raises(RegistryError, match=r"unknown thing 'aa' \(known: a; did you mean 'a'\?\)"):
        reg.build("thing", "aa")
    with pytest.raises(RegistryError) as e:
        reg.build("thing", {"name": "a", "sizes": 2})
    assert str(e.value) == "bad config for thing 'a': unknown key 'sizes'; did you mean 'size'?"
    with pytest.raises(RegistryError) as e:
        reg.build("thing", {"name": "a", "size": "big"})
    assert "size: Input should be a valid integer" in str(e.value) and "'big'" in str(e.value)
    assert "pydantic" not in str(e.value) and "http" not in str(e.value)


def test_disk_cache_roundtrip_and_persistence(tmp_path: Path) -> None:
    c = DiskCache(tmp_path, "ns")
    k = fingerprint("a", 1)
    c.put_many({k: b"x", fingerprint("b"): b"y"})
    c.close()
    c2 = DiskCache(tmp_path, "ns")
    assert c2.get(k) == b"x" and len(c2) == 2
    assert DiskCache(None, "ns").get(k) is None
    assert fingerprint({"a": 1, "b": 2}) == fingerprint({"b": 2, "a": 1})


def test_switching_a_component_drops_its_old_parameters() -> None:
    r = apply_overrides(
        {"pipeline": "x", "embedder": {"name": "sentence-transformers", "batch_size": 8}},
        ["embedder.name=hashing", "embedder.dim=64"],
    )
    assert r["embedder"] == {"name": "hashing", "dim": 64}
    same = apply_overrides(r, ["embedder.name=hashing"])
    assert same["embedder"] == {"name": "hashing", "dim": 64}


def test_set_values_stay_strings_unless_clearly_typed() -> None:
    r = apply_overrides({"pipeline": "x"}, ["a=no", "b=2020-01-01", "c=true", "d=3", "e=[1, 2]", "f=on"])
    assert r == {"pipeline": "x", "a": "no", "b": "2020-01-01", "c": True, "d": 3, "e": [1, 2], "f": "on"}


def test_recipe_name_wins_over_a_folder_of_that_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "multi2claim").mkdir()
    assert load_recipe("multi2claim")["pipeline"] == "multi2claim"


def test_no_cache_switch_disables_every_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMFORGE_NO_CACHE", "1")
    c = DiskCache(tmp_path, "ns")
    c.put("k", b"v")
    assert not c.enabled and c.get("k") is None and not list(tmp_path.iterdir())


def test_a_component_whose_module_cannot_be_imported_is_named_in_the_error(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from claimforge.registry import Registry, RegistryError

    r = Registry()
    monkeypatch.setitem(
        __import__("claimforge.registry", fromlist=["_BUILTIN_MODULES"])._BUILTIN_MODULES,
        "widget",
        ("claimforge.no_such_module_for_widgets",),
    )
    with pytest.raises(RegistryError, match=r"unknown widget 'w'.*claimforge\.no_such_module_for_widgets"):
        r.entry("widget", "w")


def test_packaged_recipes_find_the_shared_data_from_any_folder(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from claimforge.config import DATA_ENV, default_data_dir, load_recipe

    monkeypatch.chdir(tmp_path)  # "../shared/data" does not exist from here
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    assert load_recipe("claimgen")["reader"]["path"] == str(tmp_path / "data" / "citation_integrity/claims_train.jsonl")
    monkeypatch.delenv(DATA_ENV)
    path = load_recipe("multi2claim")["reader"]["path"]  # the data folder next to the checkout, when there is one
    base = default_data_dir()
    assert path == ("../shared/data/sciq/train.json" if base is None else str(base / "sciq/train.json"))
    own = tmp_path / "mine.yaml"  # a user's own recipe keeps its paths as written
    own.write_text("pipeline: multi2claim\nreader: {name: sciq, path: ../shared/data/sciq/train.json}\n")
    assert load_recipe(str(own))["reader"]["path"] == "../shared/data/sciq/train.json"

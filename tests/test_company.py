from pathlib import Path

import pytest

from server.settings import REPO_ROOT
from server.site.company import CompanyFileError, load_company


def test_the_shipped_company_file_has_the_three_branches_of_the_spec() -> None:
    company = load_company(REPO_ROOT / "company.toml")
    jordan, france, italy = company.branches
    assert (jordan.country, france.country, italy.country) == ("Jordan", "France", "Italy")
    assert jordan.email
    assert jordan.phone
    assert jordan.address
    assert "Zarqa" in jordan.address
    assert france.phone
    assert france.address
    assert italy.phone
    assert company.booking_url.startswith("https://")


def test_the_page_gets_camel_case_and_no_empty_branch_fields() -> None:
    page = load_company(REPO_ROOT / "company.toml").for_page()
    assert set(page) == {"name", "shortName", "bookingUrl", "videoId", "videoTitle", "branches"}
    assert page["branches"][2] == {
        "country": "Italy",
        "email": "italia@example.com",
        "phone": "+39 02 5555 0100",
    }
    assert page["branches"][0]["whatsapp"] == "+962 79 555 0100"


def test_an_enquiry_goes_to_the_branch_that_serves_its_country_else_to_the_first() -> None:
    company = load_company(REPO_ROOT / "company.toml")
    jordan, france, italy = company.branches
    assert company.branch_for("FR") is france
    assert company.branch_for("BE") is france
    assert company.branch_for("GR") is italy
    assert company.branch_for("JP") is jordan
    assert company.branch_for("") is jordan


def test_a_branch_without_email_has_its_enquiries_mailed_to_the_first_branch(
    tmp_path: Path,
) -> None:
    path = tmp_path / "company.toml"
    text = (REPO_ROOT / "company.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('email = "italia@example.com"\n', ""), encoding="utf-8")
    company = load_company(path)
    italy = company.branch_for("IT")
    assert italy.country_code == "IT"
    assert italy.email is None
    assert company.enquiry_email(italy) == "info@example.com"


def test_a_missing_value_names_the_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "company.toml"
    path.write_text('name = "X"\n[firebase]\nproject_id = "p"\n', encoding="utf-8")
    with pytest.raises(CompanyFileError, match="short_name must be a string") as error:
        load_company(path)
    assert str(path) in str(error.value)

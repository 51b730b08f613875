package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestCitation checks CITATION.cff, by which a course cites the pack: the
// fields the Citation File Format 1.2.0 requires (cff-version, message,
// title, authors), the repository, which is the one the web site's Binder
// links open (scripts/site/site.yaml), and the licenses of LICENSE.
func TestCitation(t *testing.T) {
	b, err := os.ReadFile("../../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Version string `yaml:"cff-version"`
		Message string `yaml:"message"`
		Title   string `yaml:"title"`
		Authors []struct {
			Name       string `yaml:"name"`
			FamilyName string `yaml:"family-names"`
		} `yaml:"authors"`
		Repository string   `yaml:"repository-code"`
		License    []string `yaml:"license"`
		Type       string   `yaml:"type"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("CITATION.cff: %v", err)
	}
	if c.Version != "1.2.0" || c.Message == "" || c.Title == "" || len(c.Authors) == 0 || c.Type != "software" {
		t.Errorf("CITATION.cff: %+v: want cff-version 1.2.0, a message, a title, authors and type software", c)
	}
	for i, a := range c.Authors {
		if a.Name == "" && a.FamilyName == "" {
			t.Errorf("CITATION.cff: author %d has no name", i)
		}
	}
	var site struct {
		Binder struct {
			Repository string `yaml:"repository"`
		} `yaml:"binder"`
	}
	s, err := os.ReadFile("site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(s, &site); err != nil {
		t.Fatal(err)
	}
	if want := "https://github.com/" + site.Binder.Repository; c.Repository != want {
		t.Errorf("CITATION.cff: repository-code %q, want %q (site.yaml's binder.repository)", c.Repository, want)
	}
	license, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.License, []string{"MIT", "CC-BY-4.0"}) || !strings.Contains(string(license), "MIT License") || !strings.Contains(string(license), "Creative Commons Attribution 4.0") {
		t.Errorf("CITATION.cff: license %q, want MIT and CC-BY-4.0, as LICENSE says", c.License)
	}
}

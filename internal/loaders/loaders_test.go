package loaders

import (
	"strings"
	"testing"

	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/internal/models"
)

func TestPacks(t *testing.T) {
	catalog := map[string]string{
		"mdef.en": "en-us/mdef",
		"mdef.zh": "zh/m/zh_cn.cd_cont_5000/mdef", "dict.zh": "zh/m/zh_cn.dic",
		"mdef.de": "de/m/voxforge.cd_cont_6000/mdef", "dict.de": "de/m/voxforge.dic",
	}
	spec := models.LoadSpec{Entry: models.Entry{ID: "Sotto/Lattice-1"}, Paths: map[string]string{
		"zh/m/zh_cn.cd_cont_5000/mdef": "/data/zh/m/zh_cn.cd_cont_5000/mdef",
		"zh/m/zh_cn.dic":               "/data/zh/m/zh_cn.dic",
		"de/m/voxforge.dic":            "/data/de/m/voxforge.dic",
	}}
	opts := map[string]string{}
	packs(spec, catalog, opts)
	if opts[align.OptPackDir+"zh"] != "/data/zh/m/zh_cn.cd_cont_5000" || opts[align.OptPackDict+"zh"] != "/data/zh/m/zh_cn.dic" {
		t.Errorf("zh pack = %q, %q", opts[align.OptPackDir+"zh"], opts[align.OptPackDict+"zh"])
	}
	if opts[align.OptPackDir+"de"] != "" || !strings.Contains(opts[align.OptPackMissing+"de"], "voxforge.cd_cont_6000/mdef") {
		t.Errorf("de pack (mdef missing) = %q, missing %q", opts[align.OptPackDir+"de"], opts[align.OptPackMissing+"de"])
	}
	if _, ok := opts[align.OptPackMissing+"en"]; ok {
		t.Error("en is not a pack language")
	}
	// A model without pack options (Sotto/Lattice-2) gets none.
	none := map[string]string{}
	packs(spec, map[string]string{"mdef": "en-us/mdef"}, none)
	if len(none) != 0 {
		t.Errorf("options without packs = %v", none)
	}
}

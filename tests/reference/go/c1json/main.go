// c1json: Go's encoding/json as a second writer of C1 JSON, the way Curio's
// batch-sealing path sends it to cuzk: decode a C1 (filecoin-proofs'
// SealCommitPhase1Output as the proofs API serialises it) into Go types
// that mirror the Rust structs, then json.Marshal it again.
//
// The types are written from rust-fil-proofs (filecoin-proofs types/mod.rs;
// storage-proofs-porep stacked/vanilla params.rs, column.rs,
// column_proof.rs, labeling_proof.rs, encoding_proof.rs; storage-proofs-core
// merkle/proof.rs) and rust-filecoin-proofs-api seal.rs. What Go's output
// differs in from serde's: struct fields in declaration order (the top level
// in Curio's alphabetical order, vanilla_proofs last), map keys sorted,
// Column's PhantomData as "_h":null, a nil slice as null, the optional
// Merkle proof variants by omitempty pointers.
//
// Usage: c1json [-curio] [-nil FIELD | -empty FIELD] IN OUT
//
//	-curio      write Curio's wrapper: {"SectorNum","Phase1Out","SectorSize"},
//	            Phase1Out a []byte, which Go writes as standard base64.
//	-nil FIELD  empty the first slice named FIELD (exp_parents, drg_parents,
//	            labeling_proofs, parents, rows, path, hashes) to nil, so that
//	            Go writes it as null.
//	-empty FIELD  the same slice made empty instead, written as [].
//
// Exit 0; 1 when IN does not decode (the reason on stderr); 2 for bad usage.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

// domain is a PoseidonDomain or Sha256Domain (an Fr's 32 little-endian
// bytes), and the [u8; 32] of a Commitment or Ticket: serde writes each as
// an array of 32 numbers, and so does Go for a byte array (a byte slice
// would be base64).
type domain [32]byte

// UnmarshalJSON insists on exactly 32 numbers: Go's default would zero-fill
// a short array and drop the excess of a long one.
func (d *domain) UnmarshalJSON(b []byte) error {
	var v []uint8
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v == nil || len(v) != 32 {
		return fmt.Errorf("a 32-byte value has %d bytes", len(v))
	}
	copy(d[:], v)
	return nil
}

// phantom is Column's `_h: PhantomData<H>`, which serde writes as unit: null.
type phantom struct{}

func (phantom) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

func (*phantom) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) != "null" {
		return fmt.Errorf("_h is %s, not null", b)
	}
	return nil
}

// pathElement: PathElement {hashes: Vec<Domain>, index: usize}.
type pathElement struct {
	Hashes []domain `json:"hashes"`
	Index  uint64   `json:"index"`
}

// inclusionPath: InclusionPath {path: Vec<PathElement>}.
type inclusionPath struct {
	Path []pathElement `json:"path"`
}

type singleProof struct {
	Root domain        `json:"root"`
	Leaf domain        `json:"leaf"`
	Path inclusionPath `json:"path"`
}

type subProof struct {
	BaseProof inclusionPath `json:"base_proof"`
	SubProof  inclusionPath `json:"sub_proof"`
	Root      domain        `json:"root"`
	Leaf      domain        `json:"leaf"`
}

type topProof struct {
	BaseProof inclusionPath `json:"base_proof"`
	SubProof  inclusionPath `json:"sub_proof"`
	TopProof  inclusionPath `json:"top_proof"`
	Root      domain        `json:"root"`
	Leaf      domain        `json:"leaf"`
}

// proofData: the externally tagged enum ProofData {Single, Sub, Top}; Go
// has no sum type, so one pointer per variant, the absent ones omitted.
type proofData struct {
	Single *singleProof `json:"Single,omitempty"`
	Sub    *subProof    `json:"Sub,omitempty"`
	Top    *topProof    `json:"Top,omitempty"`
}

// merkleProof: MerkleProof {data: ProofData}.
type merkleProof struct {
	Data proofData `json:"data"`
}

// column: Column {index: u32, rows: Vec<Domain>, _h: PhantomData}.
type column struct {
	Index uint32   `json:"index"`
	Rows  []domain `json:"rows"`
	H     phantom  `json:"_h"`
}

type columnProof struct {
	Column         column      `json:"column"`
	InclusionProof merkleProof `json:"inclusion_proof"`
}

type replicaColumnProof struct {
	CX         columnProof   `json:"c_x"`
	DrgParents []columnProof `json:"drg_parents"`
	ExpParents []columnProof `json:"exp_parents"`
}

// layerProof: LabelingProof and EncodingProof {parents, layer_index, node};
// their PhantomData is #[serde(skip)], so it is not written.
type layerProof struct {
	Parents    []domain `json:"parents"`
	LayerIndex uint32   `json:"layer_index"`
	Node       uint64   `json:"node"`
}

// stackedProof: stacked::Proof<Tree, Sha256Hasher>.
type stackedProof struct {
	CommDProofs         merkleProof        `json:"comm_d_proofs"`
	CommRLastProof      merkleProof        `json:"comm_r_last_proof"`
	ReplicaColumnProofs replicaColumnProof `json:"replica_column_proofs"`
	LabelingProofs      []layerProof       `json:"labeling_proofs"`
	EncodingProof       layerProof         `json:"encoding_proof"`
}

// commit1Out: the API's SealCommitPhase1Output; vanilla_proofs is the enum
// VanillaSealProof, externally tagged by the sector shape's variant name
// ({"StackedDrg2KiBV1": [partition][challenge]}).
type commit1Out struct {
	CommD           domain                      `json:"comm_d"`
	CommR           domain                      `json:"comm_r"`
	RegisteredProof string                      `json:"registered_proof"`
	ReplicaID       domain                      `json:"replica_id"`
	Seed            domain                      `json:"seed"`
	Ticket          domain                      `json:"ticket"`
	VanillaProofs   map[string][][]stackedProof `json:"vanilla_proofs"`
}

// curioWrapper: the Commit1 output Curio hands to cuzk.
type curioWrapper struct {
	SectorNum  uint64 `json:"SectorNum"`
	Phase1Out  []byte `json:"Phase1Out"`
	SectorSize uint64 `json:"SectorSize"`
}

// sectorSizes: the sector size of each VanillaSealProof variant.
var sectorSizes = map[string]uint64{
	"StackedDrg2KiBV1": 2 << 10, "StackedDrg8MiBV1": 8 << 20, "StackedDrg512MiBV1": 512 << 20,
	"StackedDrg32GiBV1": 32 << 30, "StackedDrg64GiBV1": 64 << 30,
}

// clearSlice sets the first slice called field to nil (written null) or to
// an empty slice (written []); false if there is no such slice.
func clearSlice(c *commit1Out, field string, asNil bool) bool {
	for _, parts := range c.VanillaProofs {
		if len(parts) == 0 || len(parts[0]) == 0 {
			continue
		}
		p := &parts[0][0]
		rc := &p.ReplicaColumnProofs
		s := p.CommDProofs.Data.Single
		if (field == "path" || field == "hashes") && (s == nil || len(s.Path.Path) == 0) {
			return false
		}
		switch field {
		case "exp_parents":
			rc.ExpParents = emptied(rc.ExpParents, asNil)
		case "drg_parents":
			rc.DrgParents = emptied(rc.DrgParents, asNil)
		case "labeling_proofs":
			p.LabelingProofs = emptied(p.LabelingProofs, asNil)
		case "parents":
			p.EncodingProof.Parents = emptied(p.EncodingProof.Parents, asNil)
		case "rows":
			rc.CX.Column.Rows = emptied(rc.CX.Column.Rows, asNil)
		case "path":
			s.Path.Path = emptied(s.Path.Path, asNil)
		case "hashes":
			s.Path.Path[0].Hashes = emptied(s.Path.Path[0].Hashes, asNil)
		default:
			return false
		}
		return true
	}
	return false
}

// emptied is nil, or v cut to length 0 (a non-nil slice).
func emptied[T any](v []T, asNil bool) []T {
	if asNil {
		return nil
	}
	return v[:0]
}

func main() {
	curio := flag.Bool("curio", false, "write Curio's base64 wrapper")
	nilField := flag.String("nil", "", "set the first slice of this name to nil")
	emptyField := flag.String("empty", "", "make the first slice of this name empty")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: c1json [-curio] [-nil FIELD | -empty FIELD] IN OUT")
		os.Exit(2)
	}
	in, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "c1json:", err)
		os.Exit(1)
	}
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.DisallowUnknownFields()
	var c commit1Out
	if err := dec.Decode(&c); err != nil {
		fmt.Fprintln(os.Stderr, "c1json: decode:", err)
		os.Exit(1)
	}
	if dec.More() {
		fmt.Fprintln(os.Stderr, "c1json: trailing data after the C1")
		os.Exit(1)
	}
	for _, f := range []struct {
		name  string
		asNil bool
	}{{*nilField, true}, {*emptyField, false}} {
		if f.name != "" && !clearSlice(&c, f.name, f.asNil) {
			fmt.Fprintln(os.Stderr, "c1json: no slice", f.name, "to clear")
			os.Exit(2)
		}
	}
	out, err := json.Marshal(&c)
	if err == nil && *curio {
		w := curioWrapper{SectorNum: 1, Phase1Out: out}
		for k := range c.VanillaProofs {
			w.SectorSize = sectorSizes[k]
		}
		out, err = json.Marshal(&w)
	}
	if err == nil {
		err = os.WriteFile(flag.Arg(1), out, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "c1json:", err)
		os.Exit(1)
	}
}

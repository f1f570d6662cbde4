#!/bin/sh
# `callscope model --format json` end to end (the Extra-P readers and the
# fitter) against Extra-P 4.2.5's own models for inputs of every reader
# format on main (tests/check_extrap_model.py: model text, constant,
# coefficients, RSS, AR2, SMAPE, RE within 1e-6).  Skipped (77) where
# ../shared/expected is absent (a tarball's build).
top_srcdir=${top_srcdir:-.}
exp=$top_srcdir/../shared/expected/extra-p
[ -d "$exp" ] || { echo "no $exp: skipped"; exit 77; }
exec python3 "$top_srcdir/tests/check_extrap_model.py" ./callscope "$exp" \
	"$top_srcdir" \
	text__one_parameter_1.txt text__one_parameter_2.txt \
	text__one_parameter_6.txt text__two_parameter_1.txt \
	text__mpa__2_param_base.txt text__mpa__3_param_base.txt \
	text__mpa__4_param_add.txt input__input_data_3p.txt \
	input__experiments_MP__experiment_MP.txt talpas__talpas_1.txt \
	talpas__talpas_5.txt json__input_1.JSON json__new__input1.json \
	jsonlines__extended2.jsonl jsonlines__matrix_4p.jsonl \
	jsonlines__sparse_matrix_2p.jsonl

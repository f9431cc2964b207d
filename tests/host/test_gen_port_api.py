"""How tests/host/gen_port_api.py reads the port's preprocessed C: on a small unit written
as the preprocessor leaves the port's files (the table macros as written)."""

from pathlib import Path

from tests.host import gen_port_api as gen

UNIT = '''\
# 1 "ports/esp32/machine_demo.c"
static const mp_arg_t demo_init_args[] = {
    { MP_QSTR_mode, MP_ARG_INT, {.u_int = 0} },
    { MP_QSTR_period, MP_ARG_KW_ONLY | MP_ARG_INT, {.u_int = 0} },
};
static void demo_init_helper(demo_obj_t *self, size_t n_args, const mp_obj_t *pos_args, mp_map_t *kw_args) {
    mp_arg_val_t args[2];
    mp_arg_parse_all(n_args, pos_args, kw_args, MP_ARRAY_SIZE(demo_init_args), demo_init_args, args);
}
static mp_obj_t demo_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    mp_arg_check_num(n_args, n_kw, 1, MP_OBJ_FUN_ARGS_MAX, true);
    uint32_t number = mp_obj_get_int(args[0]);
    if (number >= (2 * 2)) {
        mp_raise_ValueError(MP_ERROR_TEXT("invalid number"));
    }
    demo_init_helper(self, n_args - 1, args + 1, &kw_args);
    return self;
}
static mp_obj_t demo_init(size_t n_args, const mp_obj_t *args, mp_map_t *kw_args) {
    demo_init_helper(args[0], n_args - 1, args + 1, kw_args);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_KW(demo_init_obj, 1, demo_init);
static mp_obj_t demo_keep(size_t n_args, const mp_obj_t *args) {
    mp_buffer_info_t bufinfo;
    mp_get_buffer_raise(args[1], &bufinfo, MP_BUFFER_READ);
    if (bufinfo.len > 2048) {
        mp_raise_ValueError(MP_ERROR_TEXT("buffer too long"));
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(demo_keep_obj, 1, 2, demo_keep);
static mp_obj_t demo_start(mp_obj_t self_in) {
    mp_machine_i2c_p_t *i2c_p = (mp_machine_i2c_p_t *)MP_OBJ_TYPE_GET_SLOT(self->base.type, protocol);
    if (i2c_p->start == NULL) {
        mp_raise_msg(&mp_type_OSError, MP_ERROR_TEXT("I2C operation not supported"));
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(demo_start_obj, demo_start);
static const mp_rom_map_elem_t demo_locals_dict_table[] = {
    { MP_ROM_QSTR(MP_QSTR_init), MP_ROM_PTR(&demo_init_obj) },
    { MP_ROM_QSTR(MP_QSTR_keep), MP_ROM_PTR(&demo_keep_obj) },
    { MP_ROM_QSTR(MP_QSTR_start), MP_ROM_PTR(&demo_start_obj) },
    { MP_ROM_QSTR(MP_QSTR_WIDTH_12BIT), MP_ROM_INT(12) },
};
static MP_DEFINE_CONST_DICT(demo_locals_dict, demo_locals_dict_table);
static const mp_machine_i2c_p_t demo_p = {
    .transfer = demo_transfer,
};
MP_DEFINE_CONST_OBJ_TYPE(
    demo_type,
    MP_QSTR_Demo,
    MP_TYPE_FLAG_NONE,
    make_new, demo_make_new,
    protocol, &demo_p,
    locals_dict, &demo_locals_dict
    );
static const mp_rom_map_elem_t demo_module_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_machine) },
    { MP_ROM_QSTR(MP_QSTR_Demo), MP_ROM_PTR(&demo_type) },
};
static MP_DEFINE_CONST_DICT(demo_module_globals, demo_module_globals_table);
const mp_obj_module_t mp_module_machine = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&demo_module_globals,
};
MP_REGISTER_MODULE(MP_QSTR_machine, mp_module_machine);
'''


def _api():
    unit = gen.Unit(UNIT, Path("/nowhere"), "ports/esp32/machine_demo.c")
    return gen.build_api(gen.Source([unit]), gen.UNDEFINED_OK)


def test_modules_classes_and_where_they_are():
    api = _api()
    assert set(api["modules"]["machine"]["names"]) == {"Demo"}
    demo = api["classes"]["machine.Demo"]
    assert set(demo["names"]) == {"init", "keep", "WIDTH_12BIT"}
    assert demo["names"]["WIDTH_12BIT"]["kind"] == "const"
    assert demo["where"].startswith("ports/esp32/machine_demo.c:")


def test_the_arguments_of_a_constructor_and_a_method():
    demo = _api()["classes"]["machine.Demo"]
    new = demo["new"]
    # one positional id, then the helper's table: `mode` positional, `period` keyword only
    assert (new["min"], new["max"], new["kw"]) == (1, 2, ["mode", "period"])
    assert new["arg0_range"] == [0, 3]          # unsigned, refused from 2 * 2 up
    init = demo["names"]["init"]["sig"]
    assert (init["min"], init["max"], init["kw"]) == (0, 1, ["mode", "period"])
    keep = demo["names"]["keep"]["sig"]
    assert (keep["min"], keep["max"], keep["kw"], keep["max_bytes"]) == (0, 1, [], 2048)


def test_a_method_the_protocol_lacks_is_refused():
    demo = _api()["classes"]["machine.Demo"]
    assert "start" not in demo["names"]
    assert "has no start" in demo["refused"]["start"]


def test_c_integer_expressions():
    assert gen.c_int("(2 * 2)") == 4
    assert gen.c_int("2048u") == 2048
    assert gen.c_int("MP_OBJ_FUN_ARGS_MAX") is None

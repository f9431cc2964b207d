// tileclock enclosure: parametric, closed, printable in six parts on a 220 x 220 mm bed
// (PETG or PLA, 0.2 mm layers, 3 perimeters, 20 % infill). All sizes in mm.
//
// Coordinates: x runs between the two players (left player at -x, right player at +x),
// y across the table (the referee sits at -y), z up. Each end carries that player's big
// button on a deck and, behind it, that player's display on a face sloped 45 degrees
// towards the player. The centre is a ridge with the pause button (centred, reachable by
// both players and the referee), the challenge button and the status LED on top, and a
// lectern sloped towards the referee with the terminal display and the keypad.
//
// The body is cut at x = +-split_x, where the display faces meet the centre: the cut
// crosses no hole. Each joint has a 5 mm flange on both sides with two alignment pins
// and six M3 x 12 screws with nuts. The bottom is three plates (same cuts) screwed into
// heat-set inserts in posts of their body part, standing on printed feet.
//
// `part` selects what to render: "left" | "centre" | "right" (body parts; print them lying
// on their flat rear panel), "bottom_left" | "bottom_centre" | "bottom_right" (print them
// feet up), "bottoms" (the three plates) or "assembly". hardware/enclosure/render.py
// renders every part.
// The table in hardware/README.md ("Enclosure") lists the main parameters; tests render
// every part with CGAL and check it (tests/host/test_hardware_enclosure.py).

part = "assembly";

// outer size
length = 380;             // total length between the players
width = 150;              // across the table
deck_height = 65;         // height of the players' button decks and of the lectern's foot
ridge_height = 110;       // height of the centre ridge
deck_length = 65;         // each player's button deck
wedge_run = 45;           // horizontal run of each player's display face
centre_length = 160;      // the ridge between the two display faces
lectern_run = 65;         // horizontal run of the referee's lectern (from the -y edge)
wall = 2.2;
bottom_thickness = 2.4;
foot_height = 4;          // printed feet under the bottom plates (stick felt pads on them)
foot_d = 14;

// the joints between the body parts
split_x = 80;             // = centre_length / 2: the cut follows the crease of each face
flange = 9;               // width of the joint flange, inward from the outer surface
flange_t = 5;             // its thickness along x, on each side of the cut
pin_d = 4;                // alignment pins on the centre part, sockets in the end parts
pin_len = 4;
screw_d = 3.4;            // M3 clearance
insert_d = 4.2;           // M3 heat-set insert, 5 mm long
post_d = 9;

// parts
player_button_hole = 30;  // 60 mm dome push button, 30 mm thread (see player_button_*)
player_button_depth = 55; // below the panel, with its microswitch and quick-connect leads
player_button_clearance = 3;
pause_button_hole = 30;   // 30 mm snap-in arcade button (Sanwa OBSF-30)
pause_panel = 2;          // snap-in buttons need a thin panel: the top is thinned around the hole
challenge_button_hole = 16;
led_hole = 6.2;           // 5 mm LED in a clip-in holder
display_window_w = 57;    // 2.42 in SSD1309: active area 55.0 x 27.5
display_window_h = 30;
display_pcb_w = 71;       // module PCB, held by four M2 screws on standoffs
display_pcb_h = 41;
display_hole_inset = 2.5; // M2 mounting holes from the PCB edges: measure your module
keypad_w = 70;            // 4x4 membrane keypad, stuck into a 0.8 mm recess on the lectern
keypad_h = 78;
keypad_tail_slot = 22;    // slot for its flat cable
pause_y = 40;             // pause button position on the ridge (centre line x = 0)
challenge_y = 8;          // challenge button, between pause and the lectern
status_led_x = -30;       // status LED on the ridge, left of the pause button
rib_h = 8;                // ribs under the decks against the slam of a player
rib_t = 2.5;

// rear panel (+y): USB-C of the DevKit (host link), USB-C of the charger, power switch
usb_data_w = 28;          // both USB-C sockets of the ESP32-S3-DevKitC-1
usb_data_h = 9;
usb_data_x = -22;         // over the DevKit's USB end, at the carrier's rear edge
usb_data_z = 21;
usb_charge_w = 11;
usb_charge_h = 6;
usb_charge_x = 113;
usb_charge_z = 6.5;
switch_hole = 6.5;        // toggle switch, 1/4-40 bushing
switch_x = 150;
switch_z = 40;

$fn = 32;

half = length / 2;
wedge_top_x = centre_length / 2;             // where a display face meets the ridge
wedge_foot_x = wedge_top_x + wedge_run;      // where it meets the button deck
display_angle = atan((ridge_height - deck_height) / wedge_run);
lectern_top_y = -width / 2 + lectern_run;
lectern_angle = atan((ridge_height - deck_height) / lectern_run);
eps = 0.01;

assert(abs(wedge_foot_x + deck_length - half) < 0.01, "deck_length + wedge_run + centre_length/2 must be length/2");
assert(abs(split_x - wedge_top_x) < 0.01, "the cut follows the crease between the faces and the centre");

module profile_xz() {
    polygon([[-half, 0], [half, 0], [half, deck_height], [wedge_foot_x, deck_height],
             [wedge_top_x, ridge_height], [-wedge_top_x, ridge_height],
             [-wedge_foot_x, deck_height], [-half, deck_height]]);
}

// The volume cut away by the referee's lectern. `inset` grows it by that much in every
// direction (its sloped face moves into the solid, its two ends move outwards), so that
// the cavity keeps a full wall from the lectern and from the steps at its ends.
module lectern_cut(inset = 0) {
    d = inset / cos(lectern_angle);
    translate([-(wedge_top_x + inset), 0, 0]) rotate([90, 0, 90])
        linear_extrude(2 * (wedge_top_x + inset))
            polygon([[-width / 2 - 1, deck_height - d - tan(lectern_angle)], [lectern_top_y, ridge_height - d],
                     [lectern_top_y, ridge_height + 50], [-width / 2 - 1, ridge_height + 50]]);
}

module solid(inset = 0) {
    difference() {
        translate([0, width / 2 - inset, 0]) rotate([90, 0, 0])
            linear_extrude(width - 2 * inset)
                offset(delta = -inset) profile_xz();
        lectern_cut(inset);
    }
}

module shell() {
    difference() {
        solid(0);
        solid(wall);
    }
}

// place children on a player's display face: origin at the face centre, z out of the face
module on_display_face(side) {   // side -1: left player, +1: right player
    x = side * (wedge_top_x + wedge_foot_x) / 2;
    z = (deck_height + ridge_height) / 2;
    translate([x, 0, z]) rotate([0, side * (90 - display_angle), 0]) children();
}

module on_lectern(offset_x) {
    y = (-width / 2 + lectern_top_y) / 2;
    z = (deck_height + ridge_height) / 2;
    translate([offset_x, y, z]) rotate([lectern_angle, 0, 0]) children();
}

// window for a display, and 2.2 mm holes for M2 screws at the corners of its PCB
module display_cut(wx, wy, px, py) {
    cube([wx, wy, 20], center = true);
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (px / 2 - display_hole_inset), sy * (py / 2 - display_hole_inset), 0])
            cylinder(d = 2.2, h = 20, center = true, $fn = 12);
}

// 3 mm standoffs behind the face for the four M2 screws (the PCB sits clear of the window frame)
module display_standoffs(px, py) {
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (px / 2 - display_hole_inset), sy * (py / 2 - display_hole_inset), -wall - 3])
            cylinder(d = 5.5, h = 4, $fn = 16);   // 1 mm into the face: one solid with it
}

module button_positions() {
    for (side = [-1, 1]) translate([side * (half + wedge_foot_x) / 2, 0, 0]) children();
}

module cutouts() {
    // players' buttons, centred on their decks
    button_positions() translate([0, 0, deck_height - 10]) cylinder(d = player_button_hole, h = 20);
    for (side = [-1, 1]) {
        // player's display window and screw holes; turn LED beside it
        on_display_face(side) {
            display_cut(display_window_h, display_window_w, display_pcb_h, display_pcb_w);
            translate([0, display_pcb_w / 2 + 8, 0]) cylinder(d = led_hole, h = 20, center = true, $fn = 20);
        }
    }
    // pause (with the thinned panel), challenge and status LED on the ridge
    translate([0, pause_y, ridge_height - 10]) cylinder(d = pause_button_hole, h = 20);
    translate([0, pause_y, ridge_height - pause_panel - 20]) cylinder(d = pause_button_hole + 12, h = 20);
    translate([0, challenge_y, ridge_height - 10]) cylinder(d = challenge_button_hole, h = 20);
    translate([status_led_x, pause_y, ridge_height - 10]) cylinder(d = led_hole, h = 20, $fn = 20);
    // lectern: terminal display (left half), keypad recess and cable slot (right half)
    on_lectern(-wedge_top_x / 2) display_cut(display_window_w, display_window_h, display_pcb_w, display_pcb_h);
    on_lectern(wedge_top_x / 2) {
        cube([keypad_w, keypad_h, 1.6], center = true);   // 0.8 mm deep recess
        translate([0, -keypad_h / 2 + 6, 0]) cube([keypad_tail_slot, 2.5, 20], center = true);
    }
    // rear panel
    translate([usb_data_x, width / 2, usb_data_z]) cube([usb_data_w, 20, usb_data_h], center = true);
    translate([usb_charge_x, width / 2, usb_charge_z]) cube([usb_charge_w, 20, usb_charge_h], center = true);
    translate([switch_x, width / 2, switch_z]) rotate([90, 0, 0]) cylinder(d = switch_hole, h = 20, center = true, $fn = 20);
}

// everything inside the shell that holds a part or stiffens it
module inner_features() {
    for (side = [-1, 1]) on_display_face(side) display_standoffs(display_pcb_h, display_pcb_w);
    on_lectern(-wedge_top_x / 2) display_standoffs(display_pcb_w, display_pcb_h);
    // ribs under each deck: two across the table beside the button, two along it
    button_positions() difference() {
        union() {
            for (sx = [-1, 1]) translate([sx * (player_button_hole / 2 + 9) - rib_t / 2, -width / 2 + wall / 2, deck_height - wall - rib_h])
                cube([rib_t, width - wall, rib_h + eps]);
            for (sy = [-1, 1]) translate([-deck_length / 2 + wall / 2, sy * (player_button_hole / 2 + 9) - rib_t / 2, deck_height - wall - rib_h])
                cube([deck_length - wall, rib_t, rib_h + eps]);
        }
        // room for the button's nut and microswitch
        translate([0, 0, deck_height - wall - rib_h - 1]) cylinder(d = player_button_hole + 14, h = rib_h + 1);
    }
}

// posts for the bottom plate's screws, merged into the walls
module post_positions(which) {
    xs = which == "centre" ? [-split_x + 14, split_x - 14]
       : which == "left" ? [-half + wall + post_d / 2 - 0.5, -split_x - 14]
       : [split_x + 14, half - wall - post_d / 2 + 0.5];
    for (x = xs, sy = [-1, 1]) translate([x, sy * (width / 2 - wall - post_d / 2 + 0.5), 0]) children();
}

module posts(which) {
    post_positions(which) translate([0, 0, bottom_thickness])
        difference() {
            cylinder(d = post_d, h = 12, $fn = 20);
            translate([0, 0, -eps]) cylinder(d = insert_d, h = 6, $fn = 16);
        }
}

// screw holes through both flanges of a joint, in the (y, z) plane
band = (wall + flange) / 2;   // middle of the flange band, from the outer surface
joint_screws = [[-width / 2 + band, 20], [-width / 2 + band, 50], [width / 2 - band, 20],
                [width / 2 - band, 60], [width / 2 - band, 95], [0, bottom_thickness + 3.3]];
joint_pins = [[-30, bottom_thickness + 3.3], [width / 2 - band, 78]];

// the flange of one side of a joint: the shell's section there, thickened inwards by
// `flange`, `flange_t` thick on the given side of the cut (dir -1: towards x = 0)
module flange(side, dir) {
    x0 = side * split_x + (dir > 0 ? (side > 0 ? 0 : -flange_t) : (side > 0 ? -flange_t : 0));
    intersection() {
        difference() { solid(wall - eps); solid(flange); }
        translate([x0, -width, bottom_thickness]) cube([flange_t, 2 * width, ridge_height]);
    }
}

module joint_holes(side) {
    for (p = joint_screws) translate([side * split_x, p[0], p[1]]) rotate([0, 90, 0])
        cylinder(d = screw_d, h = 4 * flange_t, center = true, $fn = 16);
}

// x range of each body part
module part_slab(which) {
    lo = which == "left" ? -half - 1 : which == "centre" ? -split_x : split_x;
    hi = which == "left" ? -split_x : which == "centre" ? split_x : half + 1;
    translate([lo, -width, -1]) cube([hi - lo, 2 * width, ridge_height + 60]);
}

module body_part(which) {
    difference() {
        union() {
            intersection() {
                difference() {
                    union() { shell(); inner_features(); }
                    translate([-half - 1, -width / 2 - 1, -1]) cube([length + 2, width + 2, bottom_thickness + 1]);
                }
                part_slab(which);
            }
            posts(which);
            if (which == "centre") {
                flange(-1, -1); flange(1, -1);
                for (side = [-1, 1], p = joint_pins)
                    translate([side * (split_x - eps), p[0], p[1]]) rotate([0, side * 90, 0])
                        cylinder(d = pin_d, h = pin_len, $fn = 16);
            } else {
                side = which == "left" ? -1 : 1;
                flange(side, 1);
            }
        }
        cutouts();
        for (side = [-1, 1]) joint_holes(side);
        if (which != "centre") {
            side = which == "left" ? -1 : 1;
            for (p = joint_pins) translate([side * (split_x - eps), p[0], p[1]]) rotate([0, side * 90, 0])
                cylinder(d = pin_d + 0.4, h = pin_len + 1, $fn = 16);
        }
    }
}

// bottom plates: inside the walls, screwed to the posts, on printed feet
module bottom_part(which) {
    gap = 0.3;
    lo = which == "left" ? -half + wall + gap : which == "centre" ? -split_x + gap : split_x + gap;
    hi = which == "left" ? -split_x - gap : which == "centre" ? split_x - gap : half - wall - gap;
    difference() {
        union() {
            translate([lo, -width / 2 + wall + gap, 0]) cube([hi - lo, width - 2 * wall - 2 * gap, bottom_thickness]);
            // feet
            for (x = which == "centre" ? [0] : [which == "left" ? lo + 14 : hi - 14, which == "left" ? hi - 14 : lo + 14], sy = [-1, 1])
                translate([x, sy * (width / 2 - 16), -foot_height]) cylinder(d = foot_d, h = foot_height + eps, $fn = 24);
            bottom_mounts(which);
        }
        post_positions(which) translate([0, 0, -foot_height - 1]) cylinder(d = screw_d, h = 20, $fn = 16);
        if (which == "centre") {
            // sound holes under the buzzer
            for (i = [-1, 0, 1], j = [-1, 0, 1]) translate([30 + i * 4.5, -45 + j * 4.5, -1]) cylinder(d = 2.5, h = 10, $fn = 8);
            // carrier board screws (M3 self-tapping into the standoffs)
            for (p = carrier_holes) translate([p[0], p[1], -1]) cylinder(d = 2.6, h = 20, $fn = 12);
        }
    }
}

// carrier perfboard 70 x 90 mm (DevKit's USB end at the rear wall): four standoffs
carrier_holes = [[-53.5, -18.5], [9.5, -18.5], [-53.5, 64.5], [9.5, 64.5]];

// a rim of height h around a w x d part centred at (xc, yc); open_y +1 leaves its +y side
// open (a USB socket reaching the wall)
module frame(xc, yc, w, d, h, open_y = 0, t = 1.6) {
    translate([xc, yc, bottom_thickness - eps + h / 2]) difference() {
        cube([w + 2 * t, d + 2 * t, h], center = true);
        cube([w, d, h + 2], center = true);
        if (open_y != 0) translate([0, open_y * (d / 2 + t), 0]) cube([w, 2 * t + 1, h + 2], center = true);
    }
}

module bottom_mounts(which) {
    if (which == "centre") {
        for (p = carrier_holes) translate([p[0], p[1], bottom_thickness - eps]) cylinder(d = 7, h = 6, $fn = 16);
        // piezo transducer (17 mm) in a ring over the sound holes
        translate([30, -45, bottom_thickness - eps]) difference() {
            cylinder(d = 21, h = 4, $fn = 32);
            translate([0, 0, -1]) cylinder(d = 17.6, h = 6, $fn = 32);
        }
    }
    if (which == "right") {
        // 18650 holder (77 x 21 mm) beside the player's button
        frame(140, -50, 78, 21.4, 6);
        // charger module (26 x 17 mm), its USB-C at the rear wall
        frame(usb_charge_x, width / 2 - wall - 0.3 - 13.5, 17.6, 26.4, 3, open_y = 1);
    }
}

if (part == "left" || part == "centre" || part == "right") body_part(part);
else if (part == "bottom_left") bottom_part("left");
else if (part == "bottom_centre") bottom_part("centre");
else if (part == "bottom_right") bottom_part("right");
else if (part == "bottoms") for (p = ["left", "centre", "right"]) bottom_part(p);
else {
    for (p = ["left", "centre", "right"]) body_part(p);
    color("gray") for (p = ["left", "centre", "right"]) translate([0, 0, -8]) bottom_part(p);
}

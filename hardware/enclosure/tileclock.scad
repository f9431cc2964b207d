// tileclock enclosure: parametric, printable (PLA/PETG, 0.2 mm layers, 3 walls, no supports
// when printed as laid out by `part`). All sizes in mm.
//
// Coordinates: x runs between the two players (left player at -x, right player at +x),
// y across the table (the referee sits at -y), z up. Each end carries that player's big
// button on a low deck and, behind it, that player's display on a face sloped towards
// the player. The centre is a ridge with the pause button (centred, reachable by both)
// and the challenge button on top, and a lectern sloped towards the referee with the
// terminal display and the keypad.
//
// The table in hardware/README.md ("Enclosure") lists these parameters; a test checks
// that the two agree.

part = "assembly";        // "body" | "bottom" | "assembly"

// outer size
length = 380;             // total length between the players
width = 150;              // across the table
deck_height = 40;         // height of the players' button decks and of the lectern's foot
ridge_height = 85;        // height of the centre ridge
deck_length = 65;         // each player's button deck
wedge_run = 45;           // horizontal run of each player's display face
centre_length = 160;      // the ridge between the two display faces
lectern_run = 65;         // horizontal run of the referee's lectern (from the -y edge)
wall = 2.5;
bottom_thickness = 3;

// parts
player_button_hole = 30;  // 60 mm dome arcade button: check the nut thread of yours
pause_button_hole = 30;   // 30 mm snap-in arcade button (Sanwa OBSF-30)
pause_panel = 2;          // snap-in buttons need a thin panel: the top is thinned around the hole
challenge_button_hole = 16;
display_window_w = 57;    // 2.42 in SSD1309: active area 55.0 x 27.5
display_window_h = 30;
display_pcb_w = 71;       // module PCB, screwed from inside with four M2 screws
display_pcb_h = 41;
display_hole_inset = 2.5;  // M2 mounting holes from the PCB edges: measure your module
keypad_w = 70;            // 4x4 membrane keypad, stuck on the lectern
keypad_h = 78;
keypad_tail_slot = 22;    // slot for its flat cable
pause_y = 40;             // pause button position on the ridge (centre line x = 0)
challenge_y = 8;          // challenge button, between pause and the lectern

// rear panel (+y): USB of the DevKitC (host link), USB-C of the charger, power switch
usb_data_w = 12;
usb_data_h = 8;
usb_charge_w = 11;
usb_charge_h = 6;
switch_w = 13;
switch_h = 7;

screw_d = 3.2;            // M3, into heat-set inserts in the body's corner posts
$fn = 48;

half = length / 2;
wedge_top_x = centre_length / 2;             // where a display face meets the ridge
wedge_foot_x = wedge_top_x + wedge_run;      // where it meets the button deck
display_angle = atan((ridge_height - deck_height) / wedge_run);
lectern_top_y = -width / 2 + lectern_run;
lectern_angle = atan((ridge_height - deck_height) / lectern_run);

assert(abs(wedge_foot_x + deck_length - half) < 0.01, "deck_length + wedge_run + centre_length/2 must be length/2");

module profile_xz() {
    polygon([[-half, 0], [half, 0], [half, deck_height], [wedge_foot_x, deck_height],
             [wedge_top_x, ridge_height], [-wedge_top_x, ridge_height],
             [-wedge_foot_x, deck_height], [-half, deck_height]]);
}

// the volume cut away by the referee's lectern; `inset` moves its face into the solid
module lectern_cut(inset = 0) {
    d = inset / cos(lectern_angle);
    translate([-(wedge_top_x - inset), 0, 0]) rotate([90, 0, 90])
        linear_extrude(2 * (wedge_top_x - inset))
            polygon([[-width / 2 - 1, deck_height - d], [lectern_top_y, ridge_height - d],
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
module display_mount(wx, wy, px, py) {
    cube([wx, wy, 20], center = true);
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (px / 2 - display_hole_inset), sy * (py / 2 - display_hole_inset), 0])
            cylinder(d = 2.2, h = 20, center = true);
}

module cutouts() {
    for (side = [-1, 1]) {
        // player's button, centred on the deck
        translate([side * (half + wedge_foot_x) / 2, 0, deck_height - 10])
            cylinder(d = player_button_hole, h = 20);
        // player's display window and the pocket for its PCB
        on_display_face(side) display_mount(display_window_h, display_window_w, display_pcb_h, display_pcb_w);
    }
    // pause (with the thinned panel) and challenge on the ridge
    translate([0, pause_y, ridge_height - 10]) cylinder(d = pause_button_hole, h = 20);
    translate([0, pause_y, ridge_height - pause_panel - 20]) cylinder(d = pause_button_hole + 12, h = 20);
    translate([0, challenge_y, ridge_height - 10]) cylinder(d = challenge_button_hole, h = 20);
    // lectern: terminal display (left half), keypad recess and cable slot (right half)
    on_lectern(-wedge_top_x / 2) display_mount(display_window_w, display_window_h, display_pcb_w, display_pcb_h);
    on_lectern(wedge_top_x / 2) {
        cube([keypad_w, keypad_h, 1.6], center = true);   // 0.8 mm deep recess
        translate([0, -keypad_h / 2 + 4, 0]) cube([keypad_tail_slot, 2.5, 20], center = true);
    }
    // rear panel
    translate([-40, width / 2, bottom_thickness + 8 + usb_data_h / 2]) cube([usb_data_w, 20, usb_data_h], center = true);
    translate([0, width / 2, bottom_thickness + 8 + usb_charge_h / 2]) cube([usb_charge_w, 20, usb_charge_h], center = true);
    translate([40, width / 2, bottom_thickness + 14]) cube([switch_w, 20, switch_h], center = true);
}

module corner_posts() {
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (half - wall - 5), sy * (width / 2 - wall - 5), bottom_thickness])
            difference() {
                cylinder(d = 10, h = deck_height - bottom_thickness - wall);
                cylinder(d = 4.2, h = 12);   // M3 heat-set insert
            }
}

module body() {
    difference() {
        union() {
            difference() {
                solid(0);
                solid(wall);
                translate([-half - 1, -width / 2 - 1, -1]) cube([length + 2, width + 2, bottom_thickness + 1]);
            }
            corner_posts();
        }
        cutouts();
    }
}

module bottom() {
    difference() {
        translate([-half + wall + 0.3, -width / 2 + wall + 0.3, 0])
            cube([length - 2 * wall - 0.6, width - 2 * wall - 0.6, bottom_thickness]);
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * (half - wall - 5), sy * (width / 2 - wall - 5), -1]) cylinder(d = screw_d, h = 10);
        // vents over the buck-boost converter
        for (i = [0:4]) translate([60 + i * 8, -20, -1]) cube([4, 40, 10]);
    }
}

if (part == "body") body();
else if (part == "bottom") bottom();
else { body(); color("gray") translate([0, 0, -bottom_thickness - 5]) bottom(); }

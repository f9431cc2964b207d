// tileclock enclosure: parametric, closed, printable in eight parts on a 220 x 220 mm bed
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
// crosses no hole. Each joint has a flange on both sides along the walls and the top (none
// along the open bottom), chamfered at 45 degrees towards the inside, two alignment pins on
// the end part and six M3 x 12 screws with nuts on flat seats in bosses. The bottom is three
// flat plates (same cuts) screwed into heat-set inserts in posts of their body part,
// standing on stick-on rubber feet.
//
// Every part is drawn to print in its print orientation (tests/host/
// test_hardware_enclosure.py checks the meshes: no facet steeper than 45 degrees that is
// not on the bed, a step of at most 1 mm or a bridge of at most 10 mm; and slices them with
// PrusaSlicer, supports on, which must add none):
//   "centre"  standing on its left cut face (x = -split_x on the bed),
//   "left"    standing on its end wall (x = -length / 2 on the bed),
//   "right"   standing on its end wall (x = +length / 2 on the bed),
//   "panel_left" | "panel_right"  the display panels, face down (the display face's plane on the bed),
//   "bottom_left" | "bottom_centre" | "bottom_right"  flat, as modelled (z = 0 on the bed).
// So every wall stands, the decks, ridge and lectern stand as walls, the display faces
// lean at 45 degrees. The slicer supports a flat ceiling even 3 mm wide in a thin wall, so
// what would hang in the air ends in a point towards the print's up: round holes on their
// side are teardrops, rectangular openings are pointed, ribs, posts, webs and bosses slope
// at 40 degrees; the seats closed by a skin are bridged all round. The slicer supports any
// hole in the end parts' display faces (a wall leaning 45 degrees over the outside): the
// display and turn LED sit in a separate display panel that prints flat (panel()).
// `part` selects what to render: those eight, "bottoms" (the three plates) or "assembly".
// hardware/enclosure/render.py renders every part.
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
foot_height = 3.5;        // stick-on rubber feet under the bottom plates (3M Bumpon SJ5302)
foot_d = 12.7;

// the joints between the body parts
split_x = 80;             // = centre_length / 2: the cut follows the crease of each face
flange = 9;               // width of the joint flange, inward from the outer surface
flange_t = 8;             // its thickness along x at the wall, on each side of the cut;
                          // chamfered at 45 degrees inwards (4.6 mm at the screws)
seat_d = 6.8;             // flat seats for the screw heads and nuts, 4 mm from the cut
seat_depth = 4;
pin_d = 4;                // alignment pins on the end parts, sockets in the centre part
pin_len = 4;
screw_d = 3.4;            // M3 clearance
insert_d = 4.2;           // M3 heat-set insert, 5 mm long
post_d = 9;

// parts: a hole that takes a part is its nominal size plus 0.3 mm
fit = 0.3;
player_button_hole = 30.3;  // 60 mm dome push button, 30 mm thread (see player_button_*)
player_button_depth = 55; // below the panel, with its microswitch and quick-connect leads
player_button_clearance = 3;
pause_button_hole = 30.3; // 30 mm snap-in arcade button (Sanwa OBSF-30 pattern)
pause_panel = 2;          // snap-in buttons need a thin panel: the top is thinned around the hole
challenge_button_hole = 16.3;  // 16 mm panel button
led_hole = 6.5;           // 5 mm LED in a clip-in holder (6.2 mm)
display_window_w = 57;    // 2.42 in SSD1309: active area 55.0 x 27.5
display_window_h = 30;
display_pcb_w = 71;       // module PCB, held by four M2 screws on standoffs
display_pcb_h = 41;
display_hole_inset = 2.5; // M2 mounting holes from the PCB edges: measure your module
terminal_x = -36;         // the terminal display's centre on the lectern: its module clears the flange
keypad_w = 70;            // 4x4 membrane keypad, stuck into a 0.8 mm recess on the lectern
keypad_h = 78;
keypad_tail_slot = 22;    // slot for its flat cable
pause_y = 40;             // pause button position on the ridge (centre line x = 0)
challenge_y = 8;          // challenge button, between pause and the lectern
status_led_x = -30;       // status LED on the ridge, left of the pause button
// the display panels: each end part's display face has an opening, open towards the cut,
// that takes a flat panel carrying the player's display and turn LED (panel())
panel_lo = -27;           // the opening's lower edge, along the slope from the face's centre
                          // (the cut is at +31.8, the deck at -31.8)
panel_front = -40;        // its front and rear edges (y)
panel_rear = 53;
panel_rim = 3.5;          // the panel's rim behind the face: width inwards from the plate's edge
panel_rim_t = 2.2;        // its depth behind the plate; it slides in the end part's channel
panel_rail = 2;           // the channel's web and back rail
standoff_h = 3;           // the displays' standoffs
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
switch_hole = 6.65;       // toggle switch, 1/4-40 bushing (6.35 mm)
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
teardrop_cap = 1.4;       // the pause button's teardrop (in its thin panel) is cut off this far beyond the circle
overhang_k = 1.2;         // run : rise of the drawn overhangs (40 degrees from the vertical; the
                          // slicer's limit is about 45)
membrane = 0.4;           // skin that closes a seat's screw hole for printing (pierced by the screw)
seat_slot = 5;            // from the cut: where a seat's pocket opens towards the inside

// which way is up when the part prints (see the top): body parts stand on an x face
function print_up(which) = which == "right" ? -1 : 1;

// a round hole of diameter d, h long along z (centred), ending in a 45 degree point
// towards the 2D direction `dir` (the print's up); `cap` >= 0 cuts the point off that far
// beyond the circle (a short bridge: only where the panel is thin enough for the slicer to
// bridge it), cap < 0 keeps the full point (r * sqrt(2) from the centre)
module teardrop(d, h, dir, cap = -1) {
    translate([0, 0, -h / 2]) linear_extrude(h) teardrop2d(d, dir, cap);
}

module teardrop2d(d, dir, cap = -1) {
    r = d / 2;
    phi = atan2(dir[1], dir[0]);
    t1 = r * [cos(phi + 45), sin(phi + 45)];
    t2 = r * [cos(phi - 45), sin(phi - 45)];
    apex = r * sqrt(2) * [cos(phi), sin(phi)];
    c = r + cap;
    k = (c - r / sqrt(2)) / (r * sqrt(2) - r / sqrt(2));
    union() {
        circle(d = d);
        if (cap < 0) polygon([t1, apex, t2]);
        else polygon([t1, t1 + k * (apex - t1), t2 + k * (apex - t2), t2]);
    }
}

// a rectangular hole w x h (x, z) through a wall along y, its end towards `dir` (+1: +x,
// -1: -x, the print's up) drawn to a point whose sides stand overhang_k : 1 (40 degrees)
module gable_hole(w, h, depth, dir) {
    hull() {
        cube([w, depth, h], center = true);
        translate([dir * (w / 2 + h / 2 * overhang_k), 0, 0]) cube([eps, depth, eps], center = true);
    }
}

// the half-space n . p <= k (n a unit vector not along z)
module halfspace(n, k) {
    a = acos(n[2]);
    v = cross([0, 0, 1], n);
    rotate(a = a, v = v) translate([-2000, -2000, k - 4000]) cube([4000, 4000, 4000]);
}

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
// Beyond the cuts it ends in a 45 degree ramp into each end part (|x| + depth below the
// lectern plane <= split_x + 2 inset), so the end part closes the lectern's end with a
// wall that prints without support.
module lectern_cut(inset = 0) {
    d = inset / cos(lectern_angle);
    la = lectern_angle;
    module zone(x0, len) {
        translate([x0, 0, 0]) rotate([90, 0, 90]) linear_extrude(len)
            polygon([[-width / 2 - 1, deck_height - d - tan(lectern_angle)], [lectern_top_y, ridge_height - d],
                     [lectern_top_y, ridge_height + 50], [-width / 2 - 1, ridge_height + 50]]);
    }
    translate([-(wedge_top_x + inset), 0, 0]) rotate([90, 0, 90])
        linear_extrude(2 * (wedge_top_x + inset))
            polygon([[-width / 2 - 1, deck_height - d - tan(lectern_angle)], [lectern_top_y, ridge_height - d],
                     [lectern_top_y, ridge_height + 50], [-width / 2 - 1, ridge_height + 50]]);
    k = (split_x + 2 * inset - width / 2 * sin(la) - deck_height * cos(la)) / sqrt(2);
    intersection() {      // (a for loop here would join the two half-spaces, not cut by both)
        zone(-half - 10, length + 20);
        halfspace([-1, sin(la), -cos(la)] / sqrt(2), k);
        halfspace([1, sin(la), -cos(la)] / sqrt(2), k);
    }
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

// window for a display, and 2.2 mm holes for M2 screws at the corners of its PCB (teardrops
// pointing to `up`, the print's up in the face's x, y)
module display_cut(wx, wy, px, py, up) {
    cube([wx, wy, 20], center = true);
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (px / 2 - display_hole_inset), sy * (py / 2 - display_hole_inset), 0])
            teardrop(2.2, 20, up, $fn = 12);
}

// 3 mm standoffs behind the face for the four M2 screws (the PCB sits clear of the window
// frame), each with a web on the face towards `down` (the print's down in the face's x, y,
// scaled to the web's length): the standoffs stand out of the face at 45 degrees (display
// faces) or square to the print's up (lectern), the webs carry their undersides
module display_standoffs(px, py, down) {
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (px / 2 - display_hole_inset), sy * (py / 2 - display_hole_inset), 0]) hull() {
            translate([0, 0, -wall - 3]) cylinder(d = 5.5, h = 4, $fn = 16);   // 1 mm into the face
            translate([down[0], down[1], -wall]) cylinder(d = 5.5, h = 1, $fn = 16);
        }
}

module button_positions() {
    for (side = [-1, 1]) translate([side * (half + wedge_foot_x) / 2, 0, 0]) children();
}

module cutouts() {
    // players' buttons, centred on their decks
    for (side = [-1, 1]) translate([side * (half + wedge_foot_x) / 2, 0, deck_height])
        teardrop(player_button_hole, 20, [-side, 0]);   // up: towards the cut; under the dome's bezel
    // (the players' displays and turn LEDs sit in the display panels: see panel())
    // pause (with the thinned panel), challenge and status LED on the ridge
    translate([0, pause_y, ridge_height]) teardrop(pause_button_hole, 20, [1, 0], teardrop_cap);
    translate([0, pause_y, ridge_height - pause_panel - 10]) teardrop(pause_button_hole + 12, 20, [1, 0], teardrop_cap);
    translate([0, challenge_y, ridge_height]) teardrop(challenge_button_hole, 20, [1, 0]);
    translate([status_led_x, pause_y, ridge_height]) teardrop(led_hole, 20, [1, 0], $fn = 20);
    // lectern: terminal display (left half), keypad recess and cable slot (right half)
    on_lectern(terminal_x) {   // its end towards the print's up drawn to a 45 degree point
        display_cut(display_window_w, display_window_h, display_pcb_w, display_pcb_h, [1, 0]);
        hull() {
            cube([display_window_w, display_window_h, 20], center = true);
            translate([display_window_w / 2 + display_window_h / 2, 0, 0]) cube([eps, eps, 20], center = true);
        }
    }
    on_lectern(wedge_top_x / 2) {
        // 0.8 mm deep recess, its end towards the cut (the print's up) a 40 degree ramp
        hull() {
            cube([keypad_w, keypad_h, 1.6], center = true);
            translate([keypad_w / 2 + 1.6 * overhang_k, 0, 0.8]) cube([eps, keypad_h, eps], center = true);
        }
        // the tail's slot, pointed towards the print's up
        translate([0, -keypad_h / 2 + 6, 0]) hull() {
            cube([keypad_tail_slot, 2.5, 20], center = true);
            translate([keypad_tail_slot / 2 + 1.25 * overhang_k, 0, 0]) cube([eps, eps, 20], center = true);
        }
    }
    // rear panel: the openings pointed towards the print's up (+x centre, -x right part)
    translate([usb_data_x, width / 2, usb_data_z]) gable_hole(usb_data_w, usb_data_h, 20, 1);
    translate([usb_charge_x, width / 2, usb_charge_z]) gable_hole(usb_charge_w, usb_charge_h, 20, -1);
    translate([switch_x, width / 2, switch_z]) rotate([90, 0, 0]) teardrop(switch_hole, 20, [-1, 0], $fn = 20);
}

// everything inside the shell that holds a part or stiffens it
module inner_features() {
    // the lectern's cut ends square at its upper edge, 0.5 mm short of the ridge's inside: a
    // fillet fills the corner along the centre part, or its flange's chamfer would close the
    // notch in a single layer of the print
    li = lectern_top_y - 0.5;
    translate([-wedge_top_x, 0, 0]) rotate([90, 0, 90]) linear_extrude(2 * wedge_top_x)
        polygon([[li, ridge_height - wall / cos(lectern_angle) - 0.5 * tan(lectern_angle)],
                 [li, ridge_height - wall + 0.4], [lectern_top_y + 1.1, ridge_height - wall + 0.4]]);
    on_lectern(terminal_x) display_standoffs(display_pcb_w, display_pcb_h, [-4.5, 0]);
    // ribs under each deck: two across the table beside the button, two along it
    // under each deck: one rib across the table on the end wall's side of the button, its
    // underside at 40 degrees into the end wall (the print's down), two along the deck
    for (side = [-1, 1]) translate([side * (half + wedge_foot_x) / 2, 0, 0]) difference() {
        union() {
            x0 = player_button_hole / 2 + 9 - rib_t / 2;     // inner face, from the button
            reach = half - wall + 1 - (half + wedge_foot_x) / 2;   // to inside the end wall
            z0 = deck_height - wall - rib_h;
            mirror([side < 0 ? 1 : 0, 0, 0]) translate([0, width / 2 - wall / 2, 0]) rotate([90, 0, 0])
                linear_extrude(width - wall) polygon([[x0, z0], [x0 + rib_t, z0],
                    [reach, z0 + (reach - x0 - rib_t) / overhang_k], [reach, deck_height - wall + eps], [x0, deck_height - wall + eps]]);
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

// each post ends in a 40 degree web towards the print's down (-x for the centre and the
// left part, +x for the right one): it grows out of the wall below it without support
module posts(which) {
    down = -print_up(which);
    r = post_d / 2;
    g = post_d / 2 - 0.5;                  // from a post's centre to the wall beside it
    xs = which == "centre" ? [-split_x + 14, split_x - 14]
       : which == "left" ? [-half + wall + post_d / 2 - 0.5, -split_x - 14]
       : [split_x + 14, half - wall - post_d / 2 + 0.5];
    for (x = xs, sy = [-1, 1]) translate([x, sy * (width / 2 - wall - post_d / 2 + 0.5), bottom_thickness])
        difference() {
            // the post and, under it in the print, a web to the wall beside it whose free side
            // stands at 36 degrees (a post by the end wall grows out of it, with straight sides)
            hull() {
                cylinder(d = post_d, h = 12, $fn = 20);
                if (abs(x) < split_x + 50)
                    translate([down * 13 - 0.005, sy > 0 ? g : -g - 1, 0]) cube([0.01, 1, 12]);
                else
                    translate([down * (r + 1.5) - 0.005, -r, 0]) cube([0.01, 2 * r, 12]);
            }
            translate([0, 0, 3 - eps]) teardrop(insert_d, 6, [-down, 0], $fn = 16);   // pointed to the print's up
        }
}

// screw holes through both flanges of a joint, in the (y, z) plane: all in the front and
// rear walls' bands (the flange has no band along the open bottom: in the print it would
// start in the air)
band = (wall + flange) / 2;   // middle of the flange band, from the outer surface
joint_screws = [[-width / 2 + band, 20], [-width / 2 + band, 35], [-width / 2 + band, 50],
                [width / 2 - band, 20], [width / 2 - band, 60], [width / 2 - band, 95]];
joint_pins = [[-width / 2 + band, 62], [width / 2 - band, 78]];

// the flange of one side of a joint: the shell's section there, thickened inwards by
// `flange`, `flange_t` thick at the wall on the given side of the cut (dir -1: towards
// x = 0) and chamfered at 45 degrees: at a distance s from the cut it reaches at most
// wall + flange_t - s in from the outer surface. The outer surfaces there (the rear and
// front walls, the ridge, the lectern, the display face) each bound one half-space; the
// flange is the ring inside their union, open at the bottom.
module flange(side, dir) {
    x0 = side * split_x + (dir > 0 ? (side > 0 ? 0 : -flange_t) : (side > 0 ? -flange_t : 0));
    sx = side * dir;                       // +1: the flange lies at x > the cut
    cut = side * split_x;
    L = wall + flange_t;
    r2 = sqrt(2);
    la = lectern_angle;
    intersection() {
        difference() { solid(wall - eps); solid(flange); }
        translate([x0, -width, bottom_thickness]) cube([flange_t, 2 * width, ridge_height]);
        union() {
            // rear wall (d = width/2 - y), front wall (d = y + width/2), ridge (d = ridge_height - z)
            halfspace([sx, -1, 0] / r2, (L + sx * cut - width / 2) / r2);
            halfspace([sx, 1, 0] / r2, (L + sx * cut - width / 2) / r2);
            halfspace([sx, 0, -1] / r2, (L + sx * cut - ridge_height) / r2);
            // the lectern (centre): d = (y + width/2) sin(la) - (z - deck_height) cos(la)
            if (dir < 0) halfspace([sx, sin(la), -cos(la)] / r2,
                                   (L + sx * cut - width / 2 * sin(la) - deck_height * cos(la)) / r2);
            // a display face (end parts): d = (ridge_height + split_x - |x| - z) / sqrt(2)
            if (dir > 0) halfspace([side * (1 - 1 / r2), 0, -1 / r2] / sqrt(2 - r2),
                                   (L + split_x - (ridge_height + split_x) / r2) / sqrt(2 - r2));
        }
    }
}

// the screw holes on the side sx of the cut at `side` (sx +1: x greater than the cut), from
// 1 mm beyond the cut. Where that side prints with the cut at the top (`skin`), the hole
// stops `membrane` short of the seat: the seat's pocket below it is then closed all round
// and the slicer bridges it; the screw pierces the skin.
module joint_holes(side, sx, skin) {
    for (p = joint_screws) translate([side * split_x - sx, p[0], p[1]]) rotate([0, sx * 90, 0])
        cylinder(d = screw_d, h = skin ? 1 + seat_depth - membrane : flange_t + 12, $fn = 16);
}

// flat seats for the screws' heads and nuts, seat_depth from the cut on the side sx, in a
// pocket through the boss that opens towards the inside from seat_slot on, in a slot whose
// end towards the seat is pointed (1.5 : 1): the pocket is closed all round under the seat
// (the slicer bridges it) and runs out of the boss through a wall, not through its taper.
// The nut goes in through the slot. The pocket stays inside the walls (the one under the
// display face ends at the face's inside).
module joint_seats(side, sx) {
    intersection() {
        for (p = joint_screws) translate([side * split_x + sx * seat_depth, p[0], p[1]]) rotate([0, sx * 90, 0]) {
            cylinder(d = seat_d, h = 30, $fn = 24);
            ws = p[0] > 0 ? 1 : -1;
            r = seat_d / 2;
            // local z: away from the cut; local y = global y; local x = -/+ global z
            hull() {
                translate([-eps, ws > 0 ? -15 : 0, seat_slot - seat_depth]) cube([2 * eps, 15, eps]);
                translate([-r, ws > 0 ? -15 : 0, seat_slot - seat_depth + 1.5 * r]) cube([2 * r, 15, 30]);
            }
        }
        solid(wall);
    }
}

// a boss round the axis at p = (y, z) on the side sx of the cut at `side`: R either side of
// it in z, from the wall to R beyond it in y, full to `len` from the cut and from there on
// cut off towards its wall (rear or front) at 40 degrees to the print's vertical (square
// sides: the cut does not widen it layer by layer). It closes a seat's pocket or a socket
// all round and grows out of the wall.
module joint_boss(side, sx, p, R, len) {
    t = 1 / overhang_k;                    // tan(40 degrees): the boss loses t mm per mm
    ws = p[0] > 0 ? 1 : -1;                // +1: rear wall
    d0 = width / 2 - abs(p[0]);
    reach = d0 + R + t * len;              // d + t s <= reach, d from the wall, s from the cut
    cut = side * split_x;
    n = sqrt(1 + t * t);
    long = (reach - wall) / t + 1;
    intersection() {
        translate([cut + (sx > 0 ? 0 : -long), ws > 0 ? width / 2 - d0 - R : -width / 2, p[1] - R])
            cube([long, d0 + R, 2 * R]);
        halfspace([t * sx, -ws, 0] / n, (reach - width / 2 + t * sx * cut) / n);
        solid(wall - eps);
    }
}

module joint_bosses(side, sx, pins) {
    for (p = joint_screws) joint_boss(side, sx, p, seat_d / 2 + 1.6, seat_slot + seat_d / 2 * 1.5 + 0.5);
    if (pins) for (p = joint_pins) joint_boss(side, sx, p, (pin_d + 0.4) / 2 + 1.6, pin_len + 1 + 3 + 1.5);
}

// alignment pins on an end part's cut face, sockets for them in the centre part (`tip`: the
// socket ends in a 40 degree cone, no ceiling in the print)
module joint_pins_at(side, d, len, tip = false) {
    for (p = joint_pins) translate([side * (split_x + eps), p[0], p[1]]) rotate([0, -side * 90, 0]) {
        cylinder(d = d, h = len, $fn = 16);
        if (tip) translate([0, 0, len - eps]) cylinder(d1 = d, d2 = 0, h = d / 2 * overhang_k, $fn = 16);
    }
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
                for (side = [-1, 1]) { flange(side, -1); joint_bosses(side, -side, true); }
            } else {
                side = which == "left" ? -1 : 1;
                difference() {      // no flange across the display panel's way in
                    flange(side, 1);
                    on_panel_face(side) translate([panel_lo - panel_rim_x, panel_front - panel_rim_x, -30])
                        cube([100, panel_rear - panel_front + 2 * panel_rim_x, 60]);
                }
                joint_bosses(side, side, false);
                joint_pins_at(side, pin_d, pin_len);
                intersection() { panel_channel(side); part_slab(which); }
            }
        }
        cutouts();
        if (which != "centre") panel_cavity(which == "left" ? -1 : 1);
        if (which == "centre") {
            // it stands on its left cut: the right joint is at the top of the print
            for (side = [-1, 1]) {
                joint_holes(side, -side, side > 0);
                joint_seats(side, -side);
                joint_pins_at(side, pin_d + 0.4, pin_len + 1, true);
            }
        } else {
            side = which == "left" ? -1 : 1;      // the end parts print with the cut at the top
            joint_holes(side, side, true);
            joint_seats(side, side);
        }
    }
}

// The display panels. An end part's display face leans 45 degrees over the outside in its
// print, where the slicer supports any hole; so the face has one opening, open towards the
// cut (its edges run down the slope: nothing starts in the air), and the player's display
// and turn LED sit in a flat panel that prints face down (its holes and standoffs then
// stand vertical). The panel fills the opening flush with the face, 0.3 mm clear of its
// edges, so the display sits where it sat in the face. A rim behind the panel's edges,
// widening at 27 degrees from the plate, slides in a channel behind the opening's edges
// (a web and a back rail, 0.3 mm clear); the panel goes in from the cut before the centre
// part is joined, which then holds it: no screw.

panel_rim_x = panel_rim_t / 2;   // how far the rim reaches beyond the plate's edge (at 27 degrees:
                                 // the slicer supports the lower edge's rim at 40)
// where the lectern's end ramp meets the face (y < -10, from 18.6 mm up the slope at the
// opening's front edge) the panel takes the ramp's wall too: the end part would have it
// start in the air above the opening
ramp_y = -8;              // the ramp's share ends here (y); it starts this far up the slope:
ramp_u = 10;

// on a display face with x along the slope towards the cut, y across, z out of the face
module on_panel_face(side) {
    on_display_face(side) mirror([side > 0 ? 1 : 0, 0, 0]) children();
}

// the display's four M2 holes (x along the slope, y across)
module display_screw_positions() {
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (display_pcb_h / 2 - display_hole_inset), sy * (display_pcb_w / 2 - display_hole_inset), 0])
            children();
}

// what the end part gives up for the panel: the opening, the rim's channel, the standoffs' way
module panel_cavity(side) {
    on_panel_face(side) {
        translate([panel_lo, panel_front, -wall - eps]) cube([100, panel_rear - panel_front, 30]);
        translate([panel_lo - panel_rim_x, panel_front - panel_rim_x, -(wall + panel_rim_t + fit)])
            cube([100, panel_rear - panel_front + 2 * panel_rim_x, panel_rim_t + fit + eps]);
        for (sy = [-1, 1])
            translate([-(display_pcb_h / 2 - display_hole_inset) - 2.75 - fit,
                       sy * (display_pcb_w / 2 - display_hole_inset) - 2.75 - fit, -(wall + standoff_h + fit)])
                cube([100, 5.5 + 2 * fit, standoff_h + fit + eps]);
        translate([ramp_u - fit, panel_front - panel_rim_x, -60]) cube([100, ramp_y + fit - panel_front + panel_rim_x, 60 - wall + eps]);
    }
}

// the channel behind the opening's front, rear and lower edges: a web beyond the rim and a
// back rail behind it (a wall parallel to the face: it prints as the face does)
module panel_channel(side) {
    d0 = wall - eps;
    d1 = wall + panel_rim_t + fit;
    d2 = d1 + panel_rail;
    lo = panel_lo - panel_rim_x - panel_rail;
    w = panel_rear - panel_front + 2 * (panel_rim_x + panel_rail);
    intersection() {
        on_panel_face(side) {
            translate([lo, panel_rear + panel_rim_x, -d2]) cube([100, panel_rail, d2 - d0]);
            translate([lo, panel_rear - 3, -d2]) cube([100, panel_rim_x + panel_rail + 3, panel_rail]);
            // (the front one stops below the ramp's share, which slides past it)
            translate([lo, panel_front - panel_rim_x - panel_rail, -d2]) cube([ramp_u - lo - 1, panel_rail, d2 - d0]);
            translate([lo, panel_front - panel_rim_x - panel_rail, -d2]) cube([ramp_u - lo - 1, panel_rim_x + panel_rail + 3, panel_rail]);
            translate([lo, panel_front - panel_rim_x - panel_rail, -d2]) cube([panel_rail, w, d2 - d0]);
            translate([lo, panel_front - panel_rim_x - panel_rail, -d2]) cube([panel_rail + panel_rim_x + 3, w, panel_rail]);
        }
        solid(0);
    }
}

module panel(side) {
    pw = panel_rear - panel_front - 2 * fit;
    x0 = panel_lo + fit;
    y0 = panel_front + fit;
    difference() {
        union() {
        intersection() {
            union() {
                on_panel_face(side) {
                    translate([x0, y0, -wall]) cube([100, pw, wall]);
                    // the rim, widening at 27 degrees from the plate's edge
                    difference() {
                        hull() {
                            translate([x0, y0, -wall - eps]) cube([100, pw, eps]);
                            translate([x0 - panel_rim_x, y0 - panel_rim_x, -wall - panel_rim_t])
                                cube([100 + panel_rim_x, pw + 2 * panel_rim_x, eps]);
                        }
                        translate([x0 + panel_rim, y0 + panel_rim, -wall - panel_rim_t - 1])
                            cube([100, pw - 2 * panel_rim, panel_rim_t + 1]);
                    }
                    display_screw_positions() translate([0, 0, -wall - standoff_h])
                        cylinder(d = 5.5, h = standoff_h + eps, $fn = 16);
                }
                // the ramp's share: its wall, behind the plate and, beside it, behind the rim;
                // clear of the display's board (its corner reaches the ramp)
                difference() {
                    intersection() {
                        shell();
                        on_panel_face(side) {
                            translate([ramp_u, y0, -60]) cube([100, ramp_y - y0, 60]);
                            hull() {      // beside the plate it widens as the rim does
                                translate([ramp_u, y0 - eps, -60]) cube([100, eps, 60 - wall]);
                                translate([ramp_u, y0 - panel_rim_x, -60]) cube([100, eps, 60 - wall - panel_rim_t]);
                            }
                        }
                    }
                    on_panel_face(side) board_pocket();
                }
            }
            solid(0);
            panel_slab(side);
        }
        // the board's corner reaches 0.5 mm past the ramp's face: a cap over it
        intersection() {
            on_panel_face(side) difference() {
                translate([display_pcb_h / 2 + fit - 4, -display_pcb_w / 2 - fit - 1.2, -wall - standoff_h - 1.6 - fit - 1.5])
                    cube([5.2, 5.2, wall + standoff_h + 1.6 + fit + 1.5]);   // from the face's plane (the bed)
                board_pocket();
            }
            panel_slab(side);
        }
        }
        on_panel_face(side) {
            cube([display_window_h, display_window_w, 20], center = true);
            // (through the plate and the standoffs only: the ramp's share is above one of them)
            display_screw_positions() translate([0, 0, -wall - standoff_h - 1]) cylinder(d = 2.2, h = 20, $fn = 12);
            translate([0, display_pcb_w / 2 + 8, 0]) cylinder(d = led_hole, h = 20, center = true, $fn = 20);
        }
    }
}

// from 0.3 mm short of the cut to the deck
module panel_slab(side) {
    translate([side > 0 ? split_x + fit : -wedge_foot_x - 1, -width, -1])
        cube([wedge_foot_x + 1 - split_x - fit, 2 * width, ridge_height + 60]);
}

// room for a player's display board (0.3 mm round it) behind the panel, up to its back and,
// from the edges of its corner towards the rear and the deck, at 45 degrees deeper (the
// panel's print is face down: the roof over the room rises at 45 degrees from its walls)
module board_pocket() {
    x1 = display_pcb_h / 2 + fit;           // the edge towards the cut
    y1 = -display_pcb_w / 2 - fit;          // the front edge
    back = wall + standoff_h + 1.6 + fit;
    intersection() {
        translate([-x1, y1, -60]) cube([2 * x1, display_pcb_w + 2 * fit, 60 - wall]);
        // depth <= back + (x1 - x) and depth <= back + (y - y1)
        translate([x1, 0, -back]) rotate([0, -45, 0]) translate([-200, -200, 0]) cube([400, 400, 400]);
        translate([0, y1, -back]) rotate([-45, 0, 0]) translate([-200, -200, 0]) cube([400, 400, 400]);
    }
}

// bottom plates: inside the walls, screwed to the posts; flat underneath (they print on
// it), standing on stick-on rubber feet at foot_positions
function plate_lo(which) = which == "left" ? -half + wall + 0.3 : which == "centre" ? -split_x + 0.3 : split_x + 0.3;
function plate_hi(which) = which == "left" ? -split_x - 0.3 : which == "centre" ? split_x - 0.3 : half - wall - 0.3;

module foot_positions(which) {
    lo = plate_lo(which);
    hi = plate_hi(which);
    for (x = which == "centre" ? [0] : [which == "left" ? lo + 14 : hi - 14, which == "left" ? hi - 14 : lo + 14], sy = [-1, 1])
        translate([x, sy * (width / 2 - 16), 0]) children();
}

module bottom_part(which) {
    gap = 0.3;
    lo = plate_lo(which);
    hi = plate_hi(which);
    difference() {
        union() {
            translate([lo, -width / 2 + wall + gap, 0]) cube([hi - lo, width - 2 * wall - 2 * gap, bottom_thickness]);
            bottom_mounts(which);
        }
        post_positions(which) translate([0, 0, -1]) cylinder(d = screw_d, h = 20, $fn = 16);
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
        frame(usb_charge_x, width / 2 - wall - 0.3 - 15, 17.6, 26.4, 3, open_y = 1);   // inside the plate's edge
    }
}

if (part == "left" || part == "centre" || part == "right") body_part(part);
else if (part == "bottom_left") bottom_part("left");
else if (part == "bottom_centre") bottom_part("centre");
else if (part == "bottom_right") bottom_part("right");
else if (part == "panel_left") panel(-1);
else if (part == "panel_right") panel(1);
else if (part == "bottoms") for (p = ["left", "centre", "right"]) bottom_part(p);
else {
    for (p = ["left", "centre", "right"]) body_part(p);
    color("dimgray") for (side = [-1, 1]) panel(side);
    color("gray") for (p = ["left", "centre", "right"]) translate([0, 0, -8]) bottom_part(p);
    color("black") for (p = ["left", "centre", "right"]) translate([0, 0, -8 - foot_height])
        foot_positions(p) cylinder(d = foot_d, h = foot_height, $fn = 24);
}

"""The pipelines as tables: the front end's passes in order, the back end's after them, and
every IL they pass through."""

from __future__ import annotations

from .nanopass import Pipeline
from .passes.assign_chosen_closures import assign_chosen_closures
from .passes.assign_chosen_tensors import assign_chosen_tensors
from .passes.bind_assigned_starts import bind_assigned_starts
from .passes.bind_assigning_closures_again import bind_assigning_closures_again
from .passes.bind_called_closure_values import bind_called_closure_values
from .passes.bind_chosen_row_arguments import bind_chosen_row_arguments
from .passes.bind_chosen_storage_heads import bind_chosen_storage_heads
from .passes.bind_extent_literals import bind_extent_literals
from .passes.bind_printed_strings import bind_printed_strings
from .passes.branch_closure_operands import branch_closure_operands
from .passes.box_returned_locals import box_returned_locals
from .passes.capture_environments import capture_environments
from .passes.capture_lent_references import capture_lent_references
from .passes.cast_plain_values import cast_plain_values
from .passes.cast_printed_literals import cast_printed_literals
from .passes.cast_returned_generic_fields import cast_returned_generic_fields
from .passes.check_aggregate_function_values import check_aggregate_function_values
from .passes.check_calls import check_calls
from .passes.check_capacity import check_capacity
from .passes.check_casts import check_casts
from .passes.check_conditions import check_conditions
from .passes.check_constants import check_constants
from .passes.check_dangling_references import check_dangling_references
from .passes.check_declared_tiles import check_declared_tiles
from .passes.check_definite_assignment import check_definite_assignment
from .passes.check_deferred_names import check_deferred_names
from .passes.check_element_types import check_element_types
from .passes.check_extent_names import check_extent_names
from .passes.check_extent_queries import check_extent_queries
from .passes.check_linearity import check_linearity
from .passes.check_literal_ranges import check_literal_ranges
from .passes.check_loans import check_loans
from .passes.check_locations import check_locations
from .passes.check_loop_exits import check_loop_exits
from .passes.check_match_arms import check_match_arms
from .passes.check_memory_declarations import check_memory_declarations
from .passes.check_method_calls import check_method_calls
from .passes.check_native_subset import check_native_subset
from .passes.check_operand_types import check_operand_types
from .passes.check_returns import check_returns
from .passes.check_uninit_element_indices import check_uninit_element_indices
from .passes.check_unsafe import check_unsafe
from .passes.check_struct_arguments import check_struct_arguments
from .passes.check_struct_instances import check_struct_instances
from .passes.check_vector_types import check_vector_types
from .passes.choose_call_arguments import choose_call_arguments
from .passes.collapse_reference_chains import collapse_reference_chains
from .passes.compute_wide_extents import compute_wide_extents
from .passes.decide_placement_queries import decide_placement_queries
from .passes.decide_vector_splats import decide_vector_splats
from .passes.check_vector_lanes import check_vector_lanes
from .passes.check_shared_writes import check_shared_writes
from .passes.check_struct_fields import check_struct_fields
from .passes.check_tensor_constructors import check_tensor_constructors
from .passes.check_tensor_literals import check_tensor_literals
from .passes.check_type_names import check_type_names
from .passes.check_value_types import check_value_types
from .passes.check_visibility import check_visibility
from .passes.check_region_results import check_region_results
from .passes.check_where_clauses import check_where_clauses
from .passes.bind_launching_closures_again import bind_launching_closures_again
from .passes.call_functions_by_name import call_functions_by_name
from .passes.choose_closures_in_kernels import choose_closures_in_kernels
from .passes.choose_given_variants import choose_given_variants
from .passes.choose_memory_cells import choose_memory_cells
from .passes.copy_closures_given_chains import copy_closures_given_chains
from .passes.copy_closures_into_kernels import copy_closures_into_kernels
from .passes.copy_closures_per_argument_kind import copy_closures_per_argument_kind
from .passes.copy_closures_per_argument_type import copy_closures_per_argument_type
from .passes.copy_closures_per_made_argument import copy_closures_per_made_argument
from .passes.copy_closures_per_lent_reference import copy_closures_per_lent_reference
from .passes.copy_held_tensor_fields import copy_held_tensor_fields
from .passes.copy_out_tensors import copy_out_tensors
from .passes.copy_read_kernel_aggregates import copy_read_kernel_aggregates
from .passes.copy_rest_into_assigning_arms import copy_rest_into_assigning_arms
from .passes.copy_rest_into_closure_assigning_arms import copy_rest_into_closure_assigning_arms
from .passes.copy_rest_into_repointing_arms import copy_rest_into_repointing_arms
from .passes.copy_into_assigned_uninit_tensors import copy_into_assigned_uninit_tensors
from .passes.copy_into_lent_tensors import copy_into_lent_tensors
from .passes.copy_tracked_functions import copy_tracked_functions
from .passes.defer_early_returned_references import defer_early_returned_references
from .passes.defer_kernel_moves import defer_kernel_moves
from .passes.delay_assigning_closures import delay_assigning_closures
from .passes.delay_launching_closures import delay_launching_closures
from .passes.delay_lending_closures import delay_lending_closures
from .passes.dereference_constants import dereference_constants
from .passes.desugar_comptime import desugar_comptime
from .passes.desugar_deferred_lets import desugar_deferred_lets
from .passes.desugar_literal_suffixes import desugar_literal_suffixes
from .passes.desugar_loops import desugar_loops
from .passes.desugar_tensor_constructors import desugar_tensor_constructors
from .passes.desugar_transfer_methods import desugar_transfer_methods
from .passes.desugar_malloc import desugar_malloc
from .passes.desugar_traits import desugar_traits
from .passes.desugar_tuple_lets import desugar_tuple_lets
from .passes.desugar_unroll_across import desugar_unroll_across
from .passes.desugar_value_matches import desugar_value_matches
from .passes.differentiate_forward import differentiate_forward
from .passes.differentiate_reverse import differentiate_reverse
from .passes.dispatch_closures import dispatch_closures
from .passes.drop_chosen_placeholders import drop_chosen_placeholders
from .passes.drop_imports import drop_imports
from .passes.drop_flagged_takers import drop_flagged_takers
from .passes.drop_last_buffers import drop_last_buffers
from .passes.drop_made_flagged_results import drop_made_flagged_results
from .passes.drop_replaced_buffers import drop_replaced_buffers
from .passes.drop_type_declarations import drop_type_declarations
from .passes.drop_uncalled_closures import drop_uncalled_closures
from .passes.drop_unreturned_arguments import drop_unreturned_arguments
from .passes.drop_unread_closure_parameters import drop_unread_closure_parameters
from .passes.drop_void_results import drop_void_results
from .passes.erase_contracts import erase_contracts
from .passes.erase_raw_pointers import erase_raw_pointers
from .passes.erase_struct_arguments import erase_struct_arguments
from .passes.erase_tensor_references import erase_tensor_references
from .passes.erase_unit_lets import erase_unit_lets
from .passes.erase_unaddressable_extents import erase_unaddressable_extents
from .passes.erase_variable_extents import erase_variable_extents
from .passes.expand_aggregate_prints import expand_aggregate_prints
from .passes.expand_lazy_conditions import expand_lazy_conditions
from .passes.explicate_assertions import explicate_assertions
from .passes.explicate_control import explicate_control
from .passes.flag_assigned_placement_queries import flag_assigned_placement_queries
from .passes.flag_chosen_storages import flag_chosen_storages
from .passes.flag_maybe_lent_tensors import flag_maybe_lent_tensors
from .passes.find_owned_buffers import find_owned_buffers
from .passes.flatten_impl_blocks import flatten_impl_blocks
from .passes.fold_comptime_lambdas import fold_comptime_lambdas
from .passes.fold_const_extents import fold_const_extents
from .passes.fold_sizeof import fold_sizeof
from .passes.fold_working_sets import fold_working_sets
from .passes.forward_returned_states import forward_returned_states
from .passes.give_early_return_conditions import give_early_return_conditions
from .passes.halt_closure_prints import halt_closure_prints
from .passes.halt_state_prints import halt_state_prints
from .passes.halt_unit_operations import halt_unit_operations
from .passes.hand_on_lent_tensors import hand_on_lent_tensors
from .passes.hoist_sizing_lets import hoist_sizing_lets
from .passes.hoist_captured_lets import hoist_captured_lets
from .passes.hoist_lets_of_chosen_closures import hoist_lets_of_chosen_closures
from .passes.hold_operands_before_extent_literals import hold_operands_before_extent_literals
from .passes.hold_operands_before_kernel_moved_reads import (
    hold_operands_before_kernel_moved_reads)
from .passes.hold_operands_before_moved_reads import hold_operands_before_moved_reads
from .passes.hoist_nested_items import hoist_nested_items
from .passes.hold_borrowed_constant_literals import hold_borrowed_constant_literals
from .passes.index_chosen_rows import index_chosen_rows
from .passes.infer_placement import infer_placement
from .passes.insert_seam_assumes import insert_seam_assumes
from .passes.explicate_calls import explicate_calls
from .passes.index_uninit_pointers import index_uninit_pointers
from .passes.lend_uninit_pointers import lend_uninit_pointers
from .passes.inline_aggregate_references import inline_aggregate_references
from .passes.inline_borrowed_references import inline_borrowed_references
from .passes.bind_chosen_closure_arguments import bind_chosen_closure_arguments
from .passes.inline_identity_closures import inline_identity_closures
from .passes.inline_reference_constant_lets import inline_reference_constant_lets
from .passes.inline_returned_references import inline_returned_references
from .passes.inline_uninit_element_references import inline_uninit_element_references
from .passes.make_all_set_flags import make_all_set_flags
from .passes.mark_uninit_closures import mark_uninit_closures
from .passes.name_closure_temporaries import name_closure_temporaries
from .passes.hoist_constant_tensors import hoist_constant_tensors
from .passes.inline_aggregate_constants import inline_aggregate_constants
from .passes.name_given_aggregates import name_given_aggregates
from .passes.outline_constant_values import outline_constant_values
from .passes.rebind_assigned_uninit_tensors import rebind_assigned_uninit_tensors
from .passes.renew_taken_tensors import renew_taken_tensors
from .passes.index_chosen_constant_elements import index_chosen_constant_elements
from .passes.split_computed_constants import split_computed_constants
from .passes.insert_drops import insert_drops
from .passes.instantiate_aggregate_forms import instantiate_aggregate_forms
from .passes.lift_closures import lift_closures
from .passes.lower_matches import lower_matches
from .passes.hold_states_by_reference import hold_states_by_reference
from .passes.lower_pin_matches import lower_pin_matches
from .passes.lower_pins import lower_pins
from .passes.lower_state_tuples import lower_state_tuples
from .passes.name_made_tensors import name_made_tensors
from .passes.load_machine_files import load_machine_files
from .passes.monomorphize import monomorphize
from .passes.move_printing_loop_conditions import move_printing_loop_conditions
from .passes.name_borrowed_temporaries import name_borrowed_temporaries
from .passes.name_hardware_states import name_hardware_states
from .passes.name_row_temporaries import name_row_temporaries
from .passes.name_sizing_calls import name_sizing_calls
from .passes.name_temporaries import name_temporaries
from .passes.number_texts import number_texts
from .passes.outline_kernels import outline_kernels
from .passes.parse import parse_pass
from .passes.rebind_assigned_closure_variables import rebind_assigned_closure_variables
from .passes.rebind_chosen_references import rebind_chosen_references
from .passes.rebind_moved_enum_locals import rebind_moved_enum_locals
from .passes.rename_moved_enum_parameters import rename_moved_enum_parameters
from .passes.resolve_names import resolve_names
from .passes.resolve_sub_space_ancestors import resolve_sub_space_ancestors
from .passes.resolve_type_paths import resolve_type_paths
from .passes.return_assigned_references import return_assigned_references
from .passes.return_assigned_tensor_fields import return_assigned_tensor_fields
from .passes.return_bound_closures import return_bound_closures
from .passes.return_chosen_rows import return_chosen_rows
from .passes.return_kernel_pointers import return_kernel_pointers
from .passes.return_kernel_tensors import return_kernel_tensors
from .passes.scalarize_aggregates import scalarize_aggregates
from .passes.settle_written_tensors import settle_written_tensors
from .passes.specialize_storages import specialize_storages
from .passes.split_chosen_storages import split_chosen_storages
from .passes.split_chosen_tensor_references import split_chosen_tensor_references
from .passes.split_closure_aggregates import split_closure_aggregates
from .passes.split_choice_statements import split_choice_statements
from .passes.split_closure_results import split_closure_results
from .passes.split_kernel_aggregates import split_kernel_aggregates
from .passes.split_pure_aggregate_results import split_pure_aggregate_results
from .passes.split_result_statements import split_result_statements
from .passes.split_repointed_references import split_repointed_references
from .passes.split_returned_references import split_returned_references
from .passes.split_sizing_calls import split_sizing_calls
from .passes.split_state_tuples import split_state_tuples
from .passes.spread_hardware_states import spread_hardware_states
from .passes.start_chosen_references import start_chosen_references
from .passes.state_block_prints import state_block_prints
from .passes.schedule_sub_spaces import schedule_sub_spaces
from .passes.select_instructions import select_instructions
from .passes.summarize_working_sets import summarize_working_sets
from .passes.tag_places import tag_places
from .passes.track_moved_captures import track_moved_captures
from .passes.name_sizing_arguments import name_sizing_arguments
from .passes.flag_uninit_constants import flag_uninit_constants
from .passes.read_printed_elements import read_printed_elements
from .passes.track_uninit_elements import track_uninit_elements
from .passes.type_array_literals import type_array_literals
from .passes.type_generic_field_literals import type_generic_field_literals
from .passes.type_scalars import type_scalars
from .passes.verify_contracts import verify_contracts
from .passes.verify_seams import verify_seams
from .passes.wrap_aggregate_function_values import wrap_aggregate_function_values
from .passes.number_aggregate_function_values import number_aggregate_function_values
from .passes.wrap_function_values import wrap_function_values
from .passes.write_out_kernel_values import write_out_kernel_values

PIPELINE = Pipeline([
    parse_pass,
    load_machine_files,
    drop_imports,
    drop_void_results,
    desugar_malloc,
    check_definite_assignment,
    desugar_deferred_lets,
    desugar_tensor_constructors,
    desugar_literal_suffixes,
    desugar_loops,
    desugar_tuple_lets,
    hoist_nested_items,
    desugar_traits,
    flatten_impl_blocks,
    resolve_type_paths,
    desugar_unroll_across,
    desugar_transfer_methods,
    resolve_names,
    check_type_names,
    check_method_calls,
    check_constants,
    check_memory_declarations,
    check_struct_arguments,
    check_vector_types,
    check_struct_instances,
    type_generic_field_literals,
    type_array_literals,
    erase_struct_arguments,
    monomorphize,
    check_deferred_names,
    fold_sizeof,
    fold_const_extents,
    check_where_clauses,
    check_locations,
    decide_vector_splats,
    infer_placement,
    check_literal_ranges,
    check_match_arms,
    check_element_types,
    check_extent_names,
    check_extent_queries,
    check_tensor_literals,
    check_tensor_constructors,
    check_declared_tiles,
    desugar_value_matches,
    fold_comptime_lambdas,
    desugar_comptime,
    resolve_sub_space_ancestors,
    differentiate_forward,
    differentiate_reverse,
    check_operand_types,
    check_vector_lanes,
    check_casts,
    check_conditions,
    check_value_types,
    check_returns,
    check_loop_exits,
    check_linearity,
    check_shared_writes,
    check_unsafe,
    check_loans,
    check_dangling_references,
    check_visibility,
    check_region_results,
    check_calls,
    check_struct_fields,
    verify_contracts,
    verify_seams,
    summarize_working_sets,
    check_capacity,
    fold_working_sets,
    schedule_sub_spaces,
    outline_kernels,
    insert_seam_assumes,
])

# The back end's passes, from the front end's last IL down to MLIR operations. They run when
# native code is wanted (running the program, --action emit-mlir and emit-llvm), or when a
# dump or --stop-after names one of them.
BACK_END = [
    delay_lending_closures,
    copy_closures_per_lent_reference,
    capture_lent_references,
    inline_borrowed_references,
    return_assigned_references,
    copy_closures_given_chains,
    collapse_reference_chains,
    index_chosen_constant_elements,
    split_computed_constants,
    hoist_constant_tensors,
    inline_aggregate_constants,
    dereference_constants,
    inline_reference_constant_lets,
    hold_borrowed_constant_literals,
    outline_constant_values,
    call_functions_by_name,
    expand_lazy_conditions,
    name_temporaries,
    name_borrowed_temporaries,
    name_hardware_states,
    forward_returned_states,
    split_state_tuples,
    hold_states_by_reference,
    halt_state_prints,
    lower_state_tuples,
    lower_pins,
    lower_pin_matches,
    spread_hardware_states,
    copy_rest_into_closure_assigning_arms,
    rebind_assigned_closure_variables,
    copy_closures_per_argument_kind,
    halt_closure_prints,
    assign_chosen_closures,
    delay_launching_closures,
    bind_launching_closures_again,
    hoist_lets_of_chosen_closures,
    choose_closures_in_kernels,
    copy_closures_into_kernels,
    flag_assigned_placement_queries,
    decide_placement_queries,
    tag_places,
    lower_matches,
    halt_unit_operations,
    erase_unit_lets,
    bind_chosen_closure_arguments,
    inline_identity_closures,
    wrap_aggregate_function_values,
    number_aggregate_function_values,
    split_closure_results,
    rebind_moved_enum_locals,
    rename_moved_enum_parameters,
    choose_given_variants,
    name_given_aggregates,
    split_closure_aggregates,
    instantiate_aggregate_forms,
    state_block_prints,
    expand_aggregate_prints,
    give_early_return_conditions,
    defer_early_returned_references,
    split_choice_statements,
    split_returned_references,
    inline_returned_references,
    copy_rest_into_repointing_arms,
    split_repointed_references,
    inline_aggregate_references,
    copy_read_kernel_aggregates,
    split_kernel_aggregates,
    check_aggregate_function_values,
    cast_printed_literals,
    cast_returned_generic_fields,
    return_assigned_tensor_fields,
    copy_held_tensor_fields,
    split_result_statements,
    split_pure_aggregate_results,
    scalarize_aggregates,
    write_out_kernel_values,
    hold_operands_before_kernel_moved_reads,
    defer_kernel_moves,
    return_kernel_tensors,
    return_kernel_pointers,
    flag_maybe_lent_tensors,
    hand_on_lent_tensors,
    renew_taken_tensors,
    copy_out_tensors,
    bind_assigned_starts,
    drop_unread_closure_parameters,
    drop_uncalled_closures,
    hold_operands_before_extent_literals,
    bind_extent_literals,
    erase_variable_extents,
    compute_wide_extents,
    erase_unaddressable_extents,
    copy_rest_into_assigning_arms,
    rebind_chosen_references,
    bind_chosen_storage_heads,
    flag_chosen_storages,
    split_chosen_storages,
    specialize_storages,
    move_printing_loop_conditions,
    bind_printed_strings,
    number_texts,
    return_chosen_rows,
    index_chosen_rows,
    name_row_temporaries,
    choose_call_arguments,
    assign_chosen_tensors,
    bind_chosen_row_arguments,
    split_chosen_tensor_references,
    copy_into_lent_tensors,
    wrap_function_values,
    bind_assigning_closures_again,
    delay_assigning_closures,
    copy_closures_per_argument_type,
    cast_plain_values,
    return_bound_closures,
    bind_called_closure_values,
    copy_closures_per_made_argument,
    check_native_subset,
    settle_written_tensors,
    name_sizing_calls,
    split_sizing_calls,
    hoist_sizing_lets,
    copy_tracked_functions,
    lend_uninit_pointers,
    index_uninit_pointers,
    mark_uninit_closures,
    branch_closure_operands,
    name_closure_temporaries,
    make_all_set_flags,
    read_printed_elements,
    name_sizing_arguments,
    flag_uninit_constants,
    check_uninit_element_indices,
    inline_uninit_element_references,
    copy_into_assigned_uninit_tensors,
    rebind_assigned_uninit_tensors,
    track_uninit_elements,
    erase_contracts,
    drop_type_declarations,
    erase_raw_pointers,
    hold_operands_before_moved_reads,
    track_moved_captures,
    erase_tensor_references,
    box_returned_locals,
    type_scalars,
    start_chosen_references,
    hoist_captured_lets,
    capture_environments,
    lift_closures,
    dispatch_closures,
    explicate_control,
    explicate_assertions,
    choose_memory_cells,
    name_made_tensors,
    find_owned_buffers,
    insert_drops,
    drop_replaced_buffers,
    drop_made_flagged_results,
    drop_unreturned_arguments,
    drop_chosen_placeholders,
    drop_last_buffers,
    drop_flagged_takers,
    explicate_calls,
    select_instructions,
]

NATIVE = Pipeline(PIPELINE.passes + BACK_END)

# Every IL by name, in pipeline order (Lsrc first).
LANGUAGES = {lang.name: lang for lang in NATIVE.languages()}
